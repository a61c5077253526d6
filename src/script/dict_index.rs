//! A dict's index: which of its entries holds a key, found by the key's hash with CPython's
//! open addressing (dictobject.c's `lookdict`, `insertdict` and `build_indices`) over
//! positions in the dict's entry vector (each slot also keeps half of its key's hash: [`Slot`]).
//!
//! Why CPython's scheme and not a SIMD-probed table (hashbrown, used before): a dict of
//! 100,000 keys has an index of about a megabyte, past this VM's 512 KB L2, so each insert or
//! lookup at a random slot waits for memory. CPython hashes an int to itself and starts its
//! probe at `hash & mask`, so `d[i] = ...` over a range walks the index in order and never
//! waits; a Swiss table places a key by its hash's low bits alone and clusters when those bits
//! repeat, so it needs a well-mixed hash and every access is a random one. Measured on the
//! 2-vCPU EPYC VM (load ~2), 100,000 `d[i] = i` in a loop: CPython 8.4 ms, ours 18.3 ms with
//! the hashbrown index. CPython's probe sequence mixes every bit of the hash in (`perturb`),
//! so keys that differ only in high bits (`i << 20`) still spread after the first probe: an
//! int keeps its own value as its hash here too, and the costs are CPython's on every key set.

/// A slot no key ever used: a probe stops there.
const EMPTY: u32 = u32::MAX;
/// A slot whose key was removed: a probe goes on past it; an insert may reuse it.
const DUMMY: u32 = u32::MAX - 1;
/// CPython's `PERTURB_SHIFT`.
const PERTURB_SHIFT: u32 = 5;
/// The fewest slots a table that holds anything has (CPython's `PyDict_MINSIZE`).
const MIN_SLOTS: usize = 8;

/// One slot: a position in the entries ([`EMPTY`], [`DUMMY`] or an entry's) in the low half,
/// and the high half of that entry's hash in the high half.
///
/// Why the hash's tag in the slot (CPython keeps positions alone): a probe that meets another
/// key's slot has to tell whether it is the key sought, and with positions alone that reads
/// the entry, at a random place in a vector of 80-byte entries (8 MB for 100,000 keys, past
/// L2 and the TLB's reach). Measured on the EPYC VM: 100,000 `d[k] = 1` with str keys spent
/// 23 % of its time in that read (`key_at`), about one read an insert. With the tag, the slot
/// already read says "another key" for all but one in 2^32 of them. The bits are the hash's
/// high half because the low bits chose the slot, so they are nearly the same for every key on
/// a probe. Whether a key is in the dict, and where each goes, is unchanged: the tag only
/// skips comparisons whose answer is "no".
#[derive(Clone, Copy, PartialEq, Eq)]
struct Slot(u64);

impl Slot {
    const EMPTY: Slot = Slot(EMPTY as u64);
    const DUMMY: Slot = Slot(DUMMY as u64);
    fn holding(pos: u32, h: u64) -> Slot {
        Slot((h & !0xffff_ffff) | pos as u64)
    }
    fn pos(self) -> u32 {
        self.0 as u32
    }
    /// Whether the key at this slot may have hash `h` (its high half is the same).
    fn may_hash_to(self, h: u64) -> bool {
        (self.0 ^ h) >> 32 == 0
    }
}

#[derive(Default, Clone)]
pub(crate) struct DictIndex {
    /// None, or a power of two of them: empty, dummy, or a position in the entries.
    slots: Vec<Slot>,
    /// Slots holding a position.
    used: usize,
    /// Slots that are not [`EMPTY`] (positions and dummies): what the load bound counts, so
    /// that every probe meets an empty slot and ends.
    filled: usize,
}

/// Where an absent key goes: a slot of the probe that found it absent (the first dummy on the
/// way, else the empty slot that ended it), or nowhere yet (the table has no slots).
#[derive(Clone, Copy)]
pub(crate) struct Vacant(Option<usize>);

/// The slots a hash visits in order: CPython's recurrence `i = (5i + 1 + perturb) & mask`,
/// `perturb` shifted right by 5 each step, so the hash's high bits decide where the probe goes
/// next; once `perturb` is 0, `5i + 1` visits every slot of a power-of-two table.
struct Probe {
    i: usize,
    perturb: u64,
    mask: usize,
}

impl Probe {
    fn new(h: u64, mask: usize) -> Probe {
        Probe {
            i: h as usize & mask,
            perturb: h,
            mask,
        }
    }
    fn next_slot(&mut self) -> usize {
        let at = self.i;
        self.perturb >>= PERTURB_SHIFT;
        self.i = (self
            .i
            .wrapping_mul(5)
            .wrapping_add(self.perturb as usize)
            .wrapping_add(1))
            & self.mask;
        at
    }
}

impl DictIndex {
    #[cfg(test)]
    fn len(&self) -> usize {
        self.used
    }
    /// Whether it has slots (a dict small enough to search its entries has none).
    pub(crate) fn is_built(&self) -> bool {
        !self.slots.is_empty()
    }
    fn mask(&self) -> usize {
        self.slots.len().wrapping_sub(1)
    }
    /// The probe of CPython's `lookdict` and `insertdict`: the slot and position of the key
    /// with hash `h` for which `eq(position)` holds, or, when there is none, where it would go.
    fn probe_for(&self, h: u64, mut eq: impl FnMut(u32) -> bool) -> Result<(usize, u32), Vacant> {
        if self.slots.is_empty() {
            return Err(Vacant(None));
        }
        let mut probe = Probe::new(h, self.mask());
        let mut first_dummy = None;
        // Terminates: the load bound keeps at least a third of the slots empty, and the
        // sequence reaches every slot.
        loop {
            let at = probe.next_slot();
            let Some(slot) = self.slots.get(at).copied() else {
                return Err(Vacant(first_dummy.or(Some(at))));
            };
            match slot.pos() {
                EMPTY => return Err(Vacant(first_dummy.or(Some(at)))),
                DUMMY => {
                    first_dummy.get_or_insert(at);
                }
                pos if slot.may_hash_to(h) && eq(pos) => return Ok((at, pos)),
                _ => {}
            }
        }
    }
    /// The position of the key with hash `h` for which `eq(position)` holds.
    #[inline]
    pub(crate) fn find(&self, h: u64, eq: impl FnMut(u32) -> bool) -> Option<u32> {
        self.probe_for(h, eq).ok().map(|(_, pos)| pos)
    }
    /// As [`DictIndex::find`], or where the key would go when it is absent (one probe for
    /// both, as CPython's `insertdict`).
    pub(crate) fn find_or_vacant(
        &self,
        h: u64,
        eq: impl FnMut(u32) -> bool,
    ) -> Result<u32, Vacant> {
        self.probe_for(h, eq).map(|(_, pos)| pos)
    }
    /// Indexes the new entry `pos` (hash `h`) in the slot `vacant` named, or, when filling it
    /// would pass the load bound, rebuilds the index from `live` (every other live entry's
    /// position and hash, in entry order) at a larger size first.
    pub(crate) fn insert_vacant<I: Iterator<Item = (u32, u64)>>(
        &mut self,
        vacant: Vacant,
        h: u64,
        pos: u32,
        live: impl FnOnce() -> I,
    ) {
        match vacant.0 {
            Some(at) if self.slots.get(at) == Some(&Slot::DUMMY) => {
                if let Some(s) = self.slots.get_mut(at) {
                    *s = Slot::holding(pos, h);
                    self.used += 1;
                }
            }
            Some(at) if (self.filled + 1) * 3 <= self.slots.len() * 2 => {
                if let Some(s) = self.slots.get_mut(at) {
                    *s = Slot::holding(pos, h);
                    self.used += 1;
                    self.filled += 1;
                }
            }
            _ => {
                self.rebuild(self.used, live());
                self.insert_fresh(h, pos);
            }
        }
    }
    /// Indexes a new entry whose key is known to be absent.
    pub(crate) fn insert_new<I: Iterator<Item = (u32, u64)>>(
        &mut self,
        h: u64,
        pos: u32,
        live: impl FnOnce() -> I,
    ) {
        if (self.filled + 1) * 3 > self.slots.len() * 2 {
            self.rebuild(self.used, live());
        }
        self.insert_fresh(h, pos);
    }
    /// Puts `pos` in the first free slot of `h`'s probe; the caller has made room.
    fn insert_fresh(&mut self, h: u64, pos: u32) {
        let mut probe = Probe::new(h, self.mask());
        loop {
            let at = probe.next_slot();
            match self.slots.get_mut(at) {
                Some(s) if *s == Slot::EMPTY || *s == Slot::DUMMY => {
                    if *s == Slot::EMPTY {
                        self.filled += 1;
                    }
                    *s = Slot::holding(pos, h);
                    self.used += 1;
                    return;
                }
                Some(_) => {}
                None => return,
            }
        }
    }
    /// A new table for `live`, its `used` live entries, sized as CPython's `dictresize` sizes
    /// it (the smallest power of two at least three times the count, at least 8: room for at
    /// least one more), with no dummies. Entries go in in their order, so keys that hash to
    /// their own value (ints) are written to the slots in order.
    pub(crate) fn rebuild(&mut self, used: usize, live: impl Iterator<Item = (u32, u64)>) {
        let size = used
            .saturating_mul(3)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX / 2 + 1)
            .max(MIN_SLOTS);
        self.slots.clear();
        self.slots.resize(size, Slot::EMPTY);
        self.used = 0;
        self.filled = 0;
        for (pos, h) in live {
            self.insert_fresh(h, pos);
        }
    }
    /// Removes the key with hash `h` for which `eq(position)` holds (its slot becomes a dummy);
    /// its position.
    pub(crate) fn remove(&mut self, h: u64, eq: impl FnMut(u32) -> bool) -> Option<u32> {
        let (at, pos) = self.probe_for(h, eq).ok()?;
        let s = self.slots.get_mut(at)?;
        *s = Slot::DUMMY;
        self.used -= 1;
        Some(pos)
    }
    /// The positions of every key whose hash may be `h` (those on its probe), in probe order.
    pub(crate) fn candidates(&self, h: u64) -> impl Iterator<Item = u32> + '_ {
        let mut probe = (!self.slots.is_empty()).then(|| Probe::new(h, self.mask()));
        std::iter::from_fn(move || {
            let p = probe.as_mut()?;
            loop {
                let slot = self.slots.get(p.next_slot()).copied();
                match slot.map(|s| s.pos()) {
                    None | Some(EMPTY) => {
                        probe = None;
                        return None;
                    }
                    Some(DUMMY) => {}
                    Some(pos) if slot.is_some_and(|s| s.may_hash_to(h)) => return Some(pos),
                    Some(_) => {}
                }
            }
        })
    }
    pub(crate) fn clear(&mut self) {
        *self = DictIndex::default();
    }
    /// Slots probed to find every key of `keys` (hash, position) once they are all in:
    /// the index's quality on a key set, for tests.
    #[cfg(test)]
    fn probes_to_find(&self, keys: &[(u64, u32)]) -> usize {
        let mut n = 0;
        for &(h, pos) in keys {
            let mut probe = Probe::new(h, self.mask());
            loop {
                n += 1;
                let at = probe.next_slot();
                match self.slots.get(at).map(|s| s.pos()) {
                    Some(p) if p == pos => break,
                    None | Some(EMPTY) => panic!("key {h} not found"),
                    _ => {}
                }
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(hashes: &[u64]) -> DictIndex {
        let mut ix = DictIndex::default();
        for (pos, &h) in hashes.iter().enumerate() {
            let pos = pos as u32;
            let live = hashes.iter().copied().take(pos as usize).enumerate();
            ix.insert_new(h, pos, || live.map(|(p, h)| (p as u32, h)));
        }
        ix
    }

    #[test]
    fn every_key_is_found_after_growth_removal_and_reuse_of_dummies() {
        let hashes: Vec<u64> = (0..5000u64).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
        let mut ix = build(&hashes);
        assert_eq!(ix.len(), 5000);
        for (pos, &h) in hashes.iter().enumerate() {
            assert_eq!(ix.find(h, |p| p == pos as u32), Some(pos as u32));
        }
        for pos in (0..5000u32).step_by(3) {
            assert_eq!(ix.remove(hashes[pos as usize], |p| p == pos), Some(pos));
        }
        assert_eq!(ix.len(), 5000 - 1667);
        assert_eq!(ix.find(hashes[3], |p| p == 3), None);
        // a removed key's slot is reused by a key with the same hash
        let slots = ix.slots.len();
        match ix.find_or_vacant(hashes[3], |p| p == 9999) {
            Err(vacant) => ix.insert_vacant(vacant, hashes[3], 9999, std::iter::empty),
            Ok(p) => panic!("found {p}"),
        }
        assert_eq!(ix.slots.len(), slots, "a dummy was filled without growing");
        assert_eq!(ix.find(hashes[3], |p| p == 9999), Some(9999));
        assert_eq!(ix.find(hashes[4], |p| p == 4), Some(4));
    }

    #[test]
    fn consecutive_int_hashes_fill_consecutive_slots() {
        let hashes: Vec<u64> = (0..1000u64).collect();
        let ix = build(&hashes);
        let keys: Vec<(u64, u32)> = hashes.iter().map(|&h| (h, h as u32)).collect();
        assert_eq!(
            ix.probes_to_find(&keys),
            1000,
            "each key in its own first slot"
        );
        assert!(
            ix.slots
                .iter()
                .take(1000)
                .enumerate()
                .all(|(i, &p)| p.pos() == i as u32)
        );
    }

    #[test]
    fn int_keys_that_differ_only_in_high_bits_are_found_within_a_few_probes() {
        // Every key's first probe is slot 0 when its low bits are all 0; perturb brings the
        // high bits in after. A model of CPython 3.11's table (same sizes and probe) finds
        // these sets in 1.0, 3.0, 4.2, 5.0, 14.4 and 9.1 probes a key; a probe that never
        // reached the high bits would take thousands.
        for shift in [0u32, 10, 15, 20, 32, 40] {
            let hashes: Vec<u64> = (0..20_000u64).map(|i| i << shift).collect();
            let ix = build(&hashes);
            let keys: Vec<(u64, u32)> = hashes
                .iter()
                .enumerate()
                .map(|(p, &h)| (h, p as u32))
                .collect();
            let mean = ix.probes_to_find(&keys) as f64 / keys.len() as f64;
            assert!(mean < 16.0, "keys i << {shift}: {mean:.2} probes a key");
        }
    }

    #[test]
    fn a_probe_compares_only_the_keys_whose_hash_half_matches() {
        // 200 keys whose first slot is the same (equal low bits) and whose high halves differ:
        // finding the last walks past the others without asking `eq` about any of them.
        let hashes: Vec<u64> = (1..=200u64).map(|i| (i << 40) | 3).collect();
        let ix = build(&hashes);
        let last = hashes.len() as u32 - 1;
        let mut asked = Vec::new();
        let found = ix.find(hashes[last as usize], |p| {
            asked.push(p);
            p == last
        });
        assert_eq!(found, Some(last));
        assert_eq!(asked, vec![last]);
        // a hash whose high half matches a key's is still compared, and a false `eq` goes on
        let mut asked = 0;
        assert_eq!(
            ix.find(hashes[7], |_| {
                asked += 1;
                false
            }),
            None
        );
        assert_eq!(asked, 1);
        // the candidates of a hash are the keys that may have it
        assert_eq!(ix.candidates(hashes[9]).collect::<Vec<_>>(), vec![9]);
    }

    #[test]
    fn negative_and_extreme_hashes_probe_to_an_end() {
        let hashes: Vec<u64> = [0u64, u64::MAX, u64::MAX - 1, 1 << 63, 7, (-5i64) as u64]
            .into_iter()
            .collect();
        let ix = build(&hashes);
        for (pos, &h) in hashes.iter().enumerate() {
            assert_eq!(ix.find(h, |p| p == pos as u32), Some(pos as u32));
        }
        assert_eq!(ix.find(12345, |_| true), None);
        assert_eq!(DictIndex::default().find(1, |_| true), None);
        assert!(ix.candidates(u64::MAX).any(|p| p == 1));
        assert!(ix.candidates((-5i64) as u64).any(|p| p == 5));
    }
}
