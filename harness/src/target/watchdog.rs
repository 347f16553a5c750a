//! [`Watched`]: a per-op timeout for targets that can hang (a FUSE server that stops
//! answering blocks the syscall, and no thread can take it back). A watchdog thread looks at
//! every watched target's running op; one that has run longer than the timeout ends the
//! process with a message naming the op and the target, and exit status
//! [`HUNG_EXIT_CODE`]: a hung target is a finding, not a hung campaign. (It cannot be
//! minimized: the op never returns.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use pdtree::{
    Errno, HandleId, HeaderId, Ino, InvariantViolation, Limits, PseudoFs, ReadDirPage, Row, Stat,
    Stats,
};

/// The exit status of a process whose target hung.
pub const HUNG_EXIT_CODE: i32 = 3;

/// The timeout in milliseconds (see [`set_op_timeout`]).
static TIMEOUT_MS: AtomicU64 = AtomicU64::new(10_000);

/// The running op of each watched target: when it started and what it is.
type Running = Mutex<Option<(Instant, &'static str)>>;

static WATCHED: Mutex<Vec<(Weak<Running>, String)>> = Mutex::new(Vec::new());

/// Sets how long one op of a watched target may run (default 10 s).
pub fn set_op_timeout(t: Duration) {
    TIMEOUT_MS.store(t.as_millis().max(1) as u64, Ordering::Relaxed);
}

/// Starts the watchdog thread once.
fn watchdog() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        std::thread::Builder::new()
            .name("pdtree-watchdog".into())
            .spawn(|| loop {
                std::thread::sleep(Duration::from_millis(100));
                check_all();
            })
            .expect("starting the watchdog thread");
    });
}

fn check_all() {
    let timeout = Duration::from_millis(TIMEOUT_MS.load(Ordering::Relaxed));
    let mut watched = WATCHED.lock().unwrap_or_else(|p| p.into_inner());
    watched.retain(|(w, _)| w.strong_count() > 0);
    for (w, label) in watched.iter() {
        let Some(running) = w.upgrade() else { continue };
        let now = *running.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((started, op)) = now {
            if started.elapsed() > timeout {
                eprintln!(
                    "pdtree: the target hung: `{op}` on {label} has not returned after {:.1} s \
                     (the op timeout); stopping",
                    started.elapsed().as_secs_f64()
                );
                std::process::exit(HUNG_EXIT_CODE);
            }
        }
    }
}

/// A target whose every op, and its drop, is timed by the watchdog.
pub struct Watched<T> {
    /// `None` only while dropping.
    inner: Option<T>,
    running: Arc<Running>,
}

/// Runs `f` (e.g. making a target's sandbox, which can hang as well) under the watchdog,
/// as the op `what` on `label`.
pub fn watch<R>(label: &str, what: &'static str, f: impl FnOnce() -> R) -> R {
    watchdog();
    let running: Arc<Running> = Arc::new(Mutex::new(Some((Instant::now(), what))));
    register(&running, label.to_string());
    let r = f();
    *running.lock().unwrap_or_else(|p| p.into_inner()) = None;
    r
}

fn register(running: &Arc<Running>, label: String) {
    let mut watched = WATCHED.lock().unwrap_or_else(|p| p.into_inner());
    watched.push((Arc::downgrade(running), label));
}

/// Marks an op as running until dropped.
struct OpGuard<'a>(&'a Running);

impl Drop for OpGuard<'_> {
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

impl<T> Watched<T> {
    /// Watches `inner`; `label` names it in the message (e.g. its directory).
    pub fn new(inner: T, label: String) -> Watched<T> {
        watchdog();
        let running = Arc::new(Mutex::new(None));
        register(&running, label);
        Watched {
            inner: Some(inner),
            running,
        }
    }

    /// The watched target.
    pub fn inner(&self) -> &T {
        self.inner.as_ref().expect("present until drop")
    }

    fn inner_mut(&mut self) -> &mut T {
        self.inner.as_mut().expect("present until drop")
    }
}

/// Each method: start the clock, delegate, stop the clock. `ref` methods take `&self`,
/// `mut` methods `&mut self`.
macro_rules! watched {
    (@one ($($recv:tt)*) $get:ident $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        fn $name($($recv)* self $(, $arg: $ty)*) -> $ret {
            let running = Arc::clone(&self.running);
            *running.lock().unwrap_or_else(|p| p.into_inner()) =
                Some((Instant::now(), stringify!($name)));
            let _guard = OpGuard(&running);
            self.$get().$name($($arg),*)
        }
    };
    ($( $kind:ident fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty; )*) => {
        $( watched!(@recv $kind $name($($arg: $ty),*) -> $ret); )*
    };
    (@recv ref $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        watched!(@one (&) inner $name($($arg: $ty),*) -> $ret);
    };
    (@recv mut $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        watched!(@one (&mut) inner_mut $name($($arg: $ty),*) -> $ret);
    };
}

impl<T: PseudoFs> PseudoFs for Watched<T> {
    fn with_limits(limits: Limits) -> Self {
        Watched::new(
            T::with_limits(limits),
            std::any::type_name::<T>().to_string(),
        )
    }

    watched! {
        ref fn limits() -> Limits;
        mut fn mkdir(path: &[u8]) -> Result<Ino, Errno>;
        mut fn create(path: &[u8], content: &[u8]) -> Result<Ino, Errno>;
        mut fn symlink(path: &[u8], target: &[u8]) -> Result<Ino, Errno>;
        mut fn listing(path: &[u8]) -> Result<Ino, Errno>;
        mut fn register(dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno>;
        mut fn unregister(header: HeaderId) -> Result<(), Errno>;
        mut fn register_ns(ns: pdtree::NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno>;
        mut fn ns_create(uid: pdtree::Id, gid: pdtree::Id) -> Result<pdtree::NsId, Errno>;
        mut fn ns_destroy(ns: pdtree::NsId) -> Result<u64, Errno>;
        ref fn stat_in(view: pdtree::View, path: &[u8]) -> Result<Stat, Errno>;
        ref fn lookup_at_in(view: pdtree::View, dir: Ino, name: &[u8]) -> Result<Stat, Errno>;
        ref fn readdir_in(view: pdtree::View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno>;
        mut fn remove(path: &[u8]) -> Result<(), Errno>;
        mut fn remove_subtree(path: &[u8]) -> Result<u64, Errno>;
        mut fn mark_permanent(path: &[u8]) -> Result<(), Errno>;
        mut fn open_in(view: pdtree::View, path: &[u8]) -> Result<HandleId, Errno>;
        mut fn read(handle: HandleId) -> Result<Vec<u8>, Errno>;
        mut fn read_at(handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno>;
        mut fn write(handle: HandleId, content: &[u8]) -> Result<(), Errno>;
        mut fn generated(path: &[u8], source: &[u8]) -> Result<Ino, Errno>;
        mut fn source_add(source: &[u8], item: &[u8]) -> Result<(), Errno>;
        mut fn source_remove(source: &[u8], item: &[u8]) -> Result<(), Errno>;
        mut fn chmod_in(view: pdtree::View, path: &[u8], mode: pdtree::Mode) -> Result<(), Errno>;
        mut fn chown_in(view: pdtree::View, path: &[u8], uid: pdtree::Id, gid: pdtree::Id) -> Result<(), Errno>;
        mut fn close(handle: HandleId) -> Result<(), Errno>;
        ref fn stats() -> Stats;
        ref fn check_invariants() -> Result<(), InvariantViolation>;
        ref fn dump() -> String;
    }
}

impl<T> Drop for Watched<T> {
    fn drop(&mut self) {
        // Dropping a target (removing its sandbox) can hang as well.
        *self.running.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), "drop"));
        drop(self.inner.take());
    }
}
