//! `script`: the text parsers never panic on any bytes, and every script that parses prints
//! canonically and parses back to the same value (print → parse → print is stable too). Core's
//! own text parser, `Errno::from_str`, accepts exactly the names it prints.
#![no_main]

mod asan_defaults;

use libfuzzer_sys::fuzz_target;
use pdtree::Errno;
use pdtree_harness::{parse_op, parse_script, parse_transcript, print_script};

fuzz_target!(|data: &[u8]| {
    let _ = parse_transcript(data);
    let _ = parse_op(data);
    if let Ok(script) = parse_script(data) {
        let printed = print_script(&script);
        let again = parse_script(printed.as_bytes())
            .unwrap_or_else(|e| panic!("printed script does not parse: {e}\n{printed}"));
        assert_eq!(again, script, "print/parse changed the script\n{printed}");
        assert_eq!(print_script(&again), printed, "printing is not stable");
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(e) = text.parse::<Errno>() {
            assert_eq!(
                e.to_string(),
                text,
                "Errno::from_str accepted a name it does not print"
            );
        }
    }
});
