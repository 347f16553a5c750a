//! `pdtree mount`: serve an empty writable tree, or a demo /proc, through FUSE until
//! interrupted (Ctrl-C, SIGTERM) or unmounted from outside.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use pdtree::Tree;
use pdtree_fuse::{demo, mount, MountOptions};

/// `pdtree mount MOUNTPOINT`.
#[derive(Args, Clone, Debug)]
pub struct MountArgs {
    /// An existing directory to mount on.
    pub mountpoint: PathBuf,
    /// Serve a demo /proc with this many devices (`lo`, `eth0`, …): a sysctl table each under
    /// /proc/sys/net/ipv4/conf, a file each in /proc/net/dev_snmp6, and the listing
    /// /proc/net/index. Without it, an empty writable tree.
    #[arg(long, value_name = "DEVICES")]
    pub demo: Option<usize>,
    /// Seconds the kernel may cache names and attributes (changes made through the mount are
    /// seen at once whatever the value).
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    pub ttl: f64,
    /// Let every user use the mount, not only the one who mounted it.
    #[arg(long)]
    pub allow_other: bool,
    /// Refuse every change through the mount with EROFS.
    #[arg(long)]
    pub read_only: bool,
}

impl MountArgs {
    pub fn run(&self) -> ExitCode {
        match self.serve() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pdtree mount: {e}");
                ExitCode::FAILURE
            }
        }
    }

    fn serve(&self) -> Result<(), String> {
        let ttl = Duration::try_from_secs_f64(self.ttl).map_err(|e| format!("--ttl: {e}"))?;
        let tree = match self.demo {
            None => Tree::new(),
            Some(n) => demo::demo_tree(n).map_err(|e| format!("building the demo tree: {e}"))?,
        };
        let options = MountOptions {
            ttl,
            allow_other: self.allow_other,
            read_only: self.read_only,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
            .map_err(|e| format!("installing the signal handler: {e}"))?;
        let where_ = self.mountpoint.display();
        let mounted = mount(tree, &self.mountpoint, &options).map_err(|e| {
            format!("mounting on {where_}: {e} (mounting needs root and /dev/fuse)")
        })?;
        println!("pdtree: mounted on {where_}; Ctrl-C or `umount {where_}` to stop");
        while !stop.load(Ordering::SeqCst) && !mounted.is_finished() {
            std::thread::sleep(Duration::from_millis(50));
        }
        mounted
            .unmount()
            .map_err(|e| format!("unmounting {where_}: {e}"))?;
        println!("pdtree: unmounted {where_}");
        Ok(())
    }
}
