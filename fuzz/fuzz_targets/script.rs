//! `script`: the text parsers never panic on any bytes, and every script that parses prints
//! canonically and parses back to the same value (print → parse → print is stable too).
#![no_main]

use libfuzzer_sys::fuzz_target;
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
});
