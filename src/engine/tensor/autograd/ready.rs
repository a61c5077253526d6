//! The order backward runs ready nodes in: PyTorch's engine takes the ready node created
//! last first (its ready queue is ordered by sequence number), so the gradients reaching a
//! tensor from several paths are added in that order, and float32 sums round as PyTorch's.

use super::Node;
use std::cell::Cell;
use std::collections::BinaryHeap;
use std::rc::Rc;

thread_local! {
    static NEXT_SEQ: Cell<u64> = const { Cell::new(0) };
}

/// A fresh sequence number: nodes made later get larger ones.
pub(super) fn next_seq() -> u64 {
    NEXT_SEQ.with(|c| {
        let s = c.get();
        c.set(s.wrapping_add(1));
        s
    })
}

struct Entry(Rc<Node>);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.0.seq == other.0.seq
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.seq.cmp(&other.0.seq)
    }
}

/// Nodes whose gradient is complete, the latest-created first.
#[derive(Default)]
pub(super) struct ReadyQueue(BinaryHeap<Entry>);

impl ReadyQueue {
    pub(super) fn push(&mut self, n: Rc<Node>) {
        self.0.push(Entry(n));
    }
    pub(super) fn pop(&mut self) -> Option<Rc<Node>> {
        self.0.pop().map(|e| e.0)
    }
    pub(super) fn contains(&self, n: &Rc<Node>) -> bool {
        self.0.iter().any(|e| Rc::ptr_eq(&e.0, n))
    }
}
