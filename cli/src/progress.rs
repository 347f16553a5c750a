//! The campaign's progress bar on stderr, drawn from the library's progress callback.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pdtree_harness::campaign::Progress;
use pdtree_harness::shrink::{Budget, Spent};

/// A progress bar for a campaign (a spinner when it runs for a time rather than a count).
pub struct CampaignBar {
    bar: ProgressBar,
}

impl CampaignBar {
    /// A bar on stderr, or a hidden one when `show` is false.
    pub fn new(show: bool, iterations: Option<u64>) -> CampaignBar {
        if !show {
            return CampaignBar {
                bar: ProgressBar::hidden(),
            };
        }
        let bar = match iterations {
            Some(n) => ProgressBar::new(n),
            None => ProgressBar::new_spinner(),
        };
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
        {
            bar.set_style(style);
        }
        CampaignBar { bar }
    }

    /// Shows where the campaign is.
    pub fn update(&self, p: Progress<'_>) {
        if let Some(spent) = p.minimizing {
            self.bar.set_message(minimizing(&spent));
            self.bar.tick();
            return;
        }
        self.bar.set_position(p.done);
        let secs = p.elapsed.as_secs_f64().max(1e-9);
        let ok = p.stats.ok_permille();
        self.bar.set_message(format!(
            "{:.0} execs/s, {}.{}% ops ok, {} divergences",
            p.done as f64 / secs,
            ok / 10,
            ok % 10,
            u8::from(p.diverged)
        ));
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A progress line for a minimization: its trials, work and shortest case so far.
pub struct MinimizeBar {
    bar: ProgressBar,
}

impl MinimizeBar {
    /// A bar on stderr measuring work against `budget`, or a hidden one when `show` is false.
    pub fn new(show: bool, budget: Budget) -> MinimizeBar {
        if !show {
            return MinimizeBar {
                bar: ProgressBar::hidden(),
            };
        }
        let bar = ProgressBar::new(budget.work);
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} work {percent}% {msg}",
        ) {
            bar.set_style(style);
        }
        MinimizeBar { bar }
    }

    /// Shows what the minimization has spent.
    pub fn update(&self, spent: &Spent) {
        self.bar.set_position(spent.work);
        self.bar.set_message(minimizing(spent));
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn minimizing(spent: &Spent) -> String {
    format!(
        "minimizing: {} trials, {} work units, shortest {} ops",
        spent.trials, spent.work, spent.shortest
    )
}
