//! The naive oracle (being built).
