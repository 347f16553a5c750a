//! Panics of an implementation are caught, located, and kept off stderr while the harness
//! catches them: a panic is a divergence, never a harness crash.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LOCATION: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Installs (once per process) a panic hook that records the location of a panic raised
/// inside [`catch`] and forwards every other panic to the previous hook.
pub(crate) fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) {
                let loc = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_else(|| "unknown".into());
                LOCATION.with(|l| *l.borrow_mut() = loc);
            } else {
                previous(info);
            }
        }));
    });
}

/// A caught panic: message and location.
#[derive(Clone, Debug)]
pub(crate) struct Caught {
    pub(crate) message: String,
    pub(crate) location: String,
}

/// Runs `f`, turning a panic into [`Caught`].
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Caught> {
    let was = CATCHING.with(|c| c.replace(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    r.map_err(|p| {
        let message = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic payload)".into());
        let location = LOCATION.with(|l| std::mem::take(&mut *l.borrow_mut()));
        Caught { message, location }
    })
}
