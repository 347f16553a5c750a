//! Demo trees: an emulated /proc with per-device sysctl tables, a per-device file directory
//! and a listing, at any number of devices.

use pdtree::{Errno, PseudoFs, Row, Tree};

/// The sysctl rows of one device, as `/proc/sys/net/ipv4/conf/<dev>` has them (a subset).
const CONF_ROWS: [(&str, &str); 4] = [
    ("accept_redirects", "1\n"),
    ("forwarding", "0\n"),
    ("mtu_expires", "600\n"),
    ("rp_filter", "2\n"),
];

/// The name of device `i`: `lo`, then `eth0`, `eth1`, …
///
/// ```
/// assert_eq!(pdtree_fuse::demo::device_name(0), "lo");
/// assert_eq!(pdtree_fuse::demo::device_name(3), "eth2");
/// ```
pub fn device_name(i: usize) -> String {
    match i {
        0 => "lo".to_string(),
        _ => format!("eth{}", i - 1),
    }
}

/// Registers device `name`'s sysctl table under `/proc/sys/net/ipv4/conf` and its
/// statistics file in `/proc/net/dev_snmp6`, as the kernel does when a device appears.
///
/// ```
/// use pdtree::{PseudoFs, Tree};
/// let mut t = pdtree_fuse::demo::demo_tree(0).unwrap();
/// pdtree_fuse::demo::add_device(&mut t, "veth7").unwrap();
/// assert!(t.stat(b"/proc/sys/net/ipv4/conf/veth7/forwarding").is_ok());
/// assert!(t.stat(b"/proc/net/dev_snmp6/veth7").is_ok());
/// ```
pub fn add_device(tree: &mut Tree, name: &str) -> Result<(), Errno> {
    let rows: Vec<Row> = CONF_ROWS.iter().map(|(n, v)| Row::file(n, v)).collect();
    tree.register(format!("/proc/sys/net/ipv4/conf/{name}").as_bytes(), &rows)?;
    let snmp = format!(
        "Ip6InReceives\t0\nIp6OutRequests\t0\nifIndex\t{}\n",
        name.len()
    );
    tree.create(
        format!("/proc/net/dev_snmp6/{name}").as_bytes(),
        snmp.as_bytes(),
    )?;
    Ok(())
}

/// A tree with `devices` devices ([`device_name`]): `/proc/sys/net/ipv4/conf/<dev>/…` tables,
/// `/proc/net/dev_snmp6/<dev>` files, and `/proc/net/index`, a permanent listing of
/// `/proc/net`.
///
/// ```
/// use pdtree::PseudoFs;
/// let t = pdtree_fuse::demo::demo_tree(3).unwrap();
/// assert!(t.stat(b"/proc/sys/net/ipv4/conf/eth1/rp_filter").is_ok());
/// assert_eq!(t.stat(b"/proc/net/dev_snmp6").unwrap().size, 3);
/// assert!(t.stat(b"/proc/net/index").unwrap().permanent);
/// ```
pub fn demo_tree(devices: usize) -> Result<Tree, Errno> {
    let mut t = Tree::new();
    t.mkdir(b"/proc")?;
    t.mkdir(b"/proc/net")?;
    t.mkdir(b"/proc/net/dev_snmp6")?;
    t.listing(b"/proc/net/index")?;
    t.mark_permanent(b"/proc/net/index")?;
    for i in 0..devices {
        add_device(&mut t, &device_name(i))?;
    }
    Ok(t)
}
