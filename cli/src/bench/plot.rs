//! The per-op cost plot: one log-log panel per case, N on x, time per op on y.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::table::CASES;
use super::{BenchReport, Point};

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(127, 127, 127),
];

pub(super) fn svg(rep: &BenchReport) -> String {
    let mut buf = String::new();
    let panels: Vec<_> = CASES
        .iter()
        .filter(|(c, _, _)| {
            rep.points
                .iter()
                .any(|p| p.case == *c && p.skipped.is_none())
        })
        .collect();
    let cols = 2usize;
    let rows = panels.len().div_ceil(cols).max(1);
    {
        let root = SVGBackend::with_string(&mut buf, (1100, 380 * rows as u32)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let areas = root.split_evenly((rows, cols));
        for (area, (case, title, op)) in areas.iter().zip(panels) {
            let pts: Vec<&Point> = rep
                .points
                .iter()
                .filter(|p| p.case == *case && p.skipped.is_none())
                .collect();
            panel(area, title, op, &pts);
        }
        let _ = root.present();
    }
    buf
}

/// One case's panel: a line per series, log-log, the axes fitted to the points.
fn panel(area: &DrawingArea<SVGBackend<'_>, Shift>, title: &str, op: &str, pts: &[&Point]) {
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0f64, f64::MAX, 0f64);
    for p in pts {
        x0 = x0.min(p.n as f64);
        x1 = x1.max(p.n as f64);
        y0 = y0.min(p.ns_per_op());
        y1 = y1.max(p.ns_per_op());
    }
    let Ok(mut chart) = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 15))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (x0 / 1.3..x1 * 1.3).log_scale(),
            (y0 / 2.0..y1 * 2.0).log_scale(),
        )
    else {
        return;
    };
    let _ = chart
        .configure_mesh()
        .x_desc("N")
        .y_desc(format!("ns per {op}"))
        .x_label_formatter(&|x| format!("{x:.0e}"))
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .draw();
    let mut series: Vec<&str> = Vec::new();
    for p in pts {
        if !series.contains(&p.series) {
            series.push(p.series);
        }
    }
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let data: Vec<(f64, f64)> = pts
            .iter()
            .filter(|p| p.series == *s)
            .map(|p| (p.n as f64, p.ns_per_op()))
            .collect();
        if let Ok(ann) = chart.draw_series(LineSeries::new(data.clone(), color.stroke_width(2))) {
            ann.label(*s).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 15, y)], color.stroke_width(2))
            });
        }
        let _ = chart.draw_series(
            data.iter()
                .map(|&(x, y)| Circle::new((x, y), 3, color.filled())),
        );
    }
    let _ = chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw();
}
