//! Swarm configuration (Groce et al., ISSTA 2012): each input enables its own mix of op
//! kinds, so one input hammers `register`/`unregister`, another `open`/`remove`/`read`,
//! instead of every input being the same uniform mix.

use arbitrary::Unstructured;

use crate::gen::Profile;
use crate::lang::op::OpKind;

/// The swarm configuration of one input: a weight per [`OpKind`], 0 when disabled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Swarm {
    /// Per [`OpKind::ALL`] index: the weight (0 = disabled in this input).
    pub weights: [u32; OpKind::COUNT],
}

impl Swarm {
    /// Reads one byte per kind (an exhausted input reads as weight 1 for every kind).
    pub(crate) fn from_bytes(u: &mut Unstructured<'_>) -> Swarm {
        let mut weights = [0; OpKind::COUNT];
        for k in OpKind::ALL {
            let b: u8 = u.arbitrary().unwrap_or(1);
            weights[k as usize] = match k {
                // Expensive or trivial kinds: on in 1 input of 8, weight 1.
                OpKind::Check | OpKind::Dump | OpKind::Stats => u32::from(b % 8 == 0),
                // A bulk op makes up to hundreds of entries, and every later op's checks
                // walk them: on in 1 input of 8, weight 1.
                OpKind::Bulk => u32::from(b % 8 == 1),
                // The rest of the deep regime (`gen::deep`). A chain thousands deep makes every
                // later dump megabytes (full paths), so it is on in 1 input of 32; a cycle op
                // can be 2^16 calls, so each kind is on in 1 input of 16. Weight 1.
                OpKind::Chain => u32::from(b % 32 == 3),
                OpKind::CycleCreate
                | OpKind::CycleOpen
                | OpKind::CycleRegister
                | OpKind::CycleSource
                | OpKind::CycleNs => u32::from(b % 16 == 2),
                _ if b % 4 == 0 => 0,
                // Kinds that build state weigh more, so the tree gets interesting.
                OpKind::Mkdir | OpKind::Create | OpKind::Register => 3 + u32::from(b >> 2) % 8,
                _ => 1 + u32::from(b >> 2) % 8,
            };
        }
        if weights.iter().all(|&w| w == 0) {
            weights[OpKind::Mkdir as usize] = 1;
        }
        Swarm { weights }
    }

    /// Disables the kinds `profile` does not support (keeping `mkdir` if nothing is left).
    pub(crate) fn restrict(&mut self, profile: &Profile) {
        for k in OpKind::ALL.into_iter().filter(|&k| !profile.supports(k)) {
            self.weights[k as usize] = 0;
        }
        if self.weights.iter().all(|&w| w == 0) {
            self.weights[OpKind::Mkdir as usize] = 1;
        }
    }

    /// The kind the weighted draw `r` (below the total weight) falls on.
    pub(crate) fn kind_at(&self, mut r: u32) -> OpKind {
        for k in OpKind::ALL {
            let w = self.weights[k as usize];
            if r < w {
                return k;
            }
            r -= w;
        }
        OpKind::Stats
    }

    /// The sum of the weights (at least 1: some kind is always enabled).
    pub(crate) fn total(&self) -> u32 {
        self.weights.iter().sum()
    }
}
