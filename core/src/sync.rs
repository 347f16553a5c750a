//! The synchronization primitives [`crate::SharedTree`] uses: std's, or shuttle's when built
//! with `--cfg pdtree_shuttle`, so that the harness's schedule tests can run every
//! interleaving from a seed (`ci/schedules`). Nothing else in core synchronizes: the tree's
//! sharded handle table is the one place in it with a `Mutex` and an atomic.

// A sharded reader-writer lock: a reader locks only its thread's shard, so readers on
// different cores do not write one shared cache line; a writer locks every shard.
#[cfg(not(pdtree_shuttle))]
pub(crate) use std::sync::{
    atomic::{AtomicU64, Ordering},
    Mutex, MutexGuard,
};

#[cfg(not(pdtree_shuttle))]
pub(crate) use crossbeam_utils::sync::{
    ShardedLock as RwLock, ShardedLockReadGuard as RwLockReadGuard,
    ShardedLockWriteGuard as RwLockWriteGuard,
};
#[cfg(all(not(pdtree_shuttle), feature = "races"))]
pub(crate) use std::thread::yield_now;

#[cfg(pdtree_shuttle)]
pub(crate) use shuttle::sync::{
    atomic::{AtomicU64, Ordering},
    Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
#[cfg(all(pdtree_shuttle, feature = "races"))]
pub(crate) use shuttle::thread::yield_now;
