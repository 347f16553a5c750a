#!/usr/bin/env python3
"""Shows, on a real directory, the behaviour behind each mask of the posix-linux profile
(harness/src/target/real_dir.rs). Prints a transcript: each call and what the kernel
answered. Usage: show-masks.py DIR (an empty scratch directory is made inside DIR).
The committed masks-*.txt files are its output on tmpfs, ext4 and pdtree-fuse."""
import errno
import os
import shutil
import sys
import tempfile


def call(label, f):
    try:
        r = f()
        print(f"{label} => ok{'' if r is None else ' ' + str(r)}")
    except OSError as e:
        print(f"{label} => {errno.errorcode[e.errno]}")


def main(base):
    d = tempfile.mkdtemp(prefix="masks-", dir=base)
    j = lambda *p: os.path.join(d, *p)
    print("# directory size: st_size of a directory with 3 children (the tree: 3)")
    os.mkdir(j("dir"))
    for n in ("a", "b", "c"):
        open(j("dir", n), "w").close()
    call("stat dir st_size", lambda: os.lstat(j("dir")).st_size)
    call("stat dir st_nlink", lambda: os.lstat(j("dir")).st_nlink)
    print("# inode numbers: the kernel's own (the tree: 2, 3, 4 in creation order)")
    call("inodes of a b c", lambda: [os.lstat(j("dir", n)).st_ino > 0 for n in "abc"])
    print("# unlink and rmdir are two calls; the tree has one remove")
    os.mkdir(j("full"))
    open(j("full", "x"), "w").close()
    call("unlink dir", lambda: os.unlink(j("dir")))
    call("rmdir dir/a (a file)", lambda: os.rmdir(j("dir", "a")))
    call("rmdir full (not empty)", lambda: os.rmdir(j("full")))
    print("# read after unlink: POSIX keeps the open file readable (the tree: ENOENT)")
    try:
        with open(j("r"), "w") as f:
            f.write("content")
    except OSError as e:
        print(f"write content to a new file => {errno.errorcode[e.errno]} (it stays empty)")
    fd = os.open(j("r"), os.O_RDONLY)
    os.unlink(j("r"))
    call("read an unlinked open file", lambda: os.pread(fd, 100, 0))
    os.close(fd)
    print("# path syntax the tree refuses with EINVAL")
    call("mkdir dir/.", lambda: os.mkdir(j("dir", ".")))
    call("mkdir dir//e (empty component)", lambda: os.mkdir(j("dir") + "//e"))
    call("symlink with an empty target", lambda: os.symlink("", j("empty")))
    print("# symlink targets: C strings of at most 4095 bytes (the tree: up to max_content)")
    call("symlink target of 4095 bytes", lambda: os.symlink("z" * 4095, j("t4095")))
    call("symlink target of 4096 bytes", lambda: os.symlink("z" * 4096, j("t4096")))
    print("# a symlink in the middle of a path is followed (the tree: ENOTDIR)")
    os.symlink("dir", j("link"))
    call("mkdir link/x", lambda: os.mkdir(j("link", "x")))
    call("lstat dir/x", lambda: "exists" if os.path.lexists(j("dir", "x")) else "missing")
    print("# getdents on a directory removed while open")
    os.mkdir(j("gone"))
    dfd = os.open(j("gone"), os.O_RDONLY | os.O_DIRECTORY)
    os.rmdir(j("gone"))
    # getdents64 itself answers ENOENT here (what the adapter sees); glibc reads that as the
    # end of the directory, which is what this line shows.
    call("glibc readdir of the removed directory", lambda: os.listdir(dfd))
    os.close(dfd)
    print("# writing content after creation")
    call("write 3 bytes to a new file", lambda: write_new(j("w"), "abc"))
    shutil.rmtree(d)


def write_new(path, text):
    with open(path, "w") as f:
        return f.write(text)


if __name__ == "__main__":
    main(sys.argv[1])
