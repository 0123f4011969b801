//! [`Replaced`]: the replacement words of a module's replaced instructions, looked up by
//! instruction index, in 16 bytes a replaced instruction (plus its words).
//!
//! Storage: the words of every replacement one after another in one arena (no allocation per
//! instruction; a replaced-again instruction leaves its old words unused there), and the entries
//! `(instruction, start, length)` in two sorted vectors instead of a hash map (a hash map of
//! these entries costs 25 bytes a bucket at a load of at most 7/8, and a rehash holds the old
//! and the new table at once: on a real-shaped 10 MB module, 2.4 MB at the peak of the run):
//! - `run`: the entries of the replacements made in increasing instruction order since the last
//!   merge (passes edit in module order: each pass appends one run);
//! - `sorted`: all other entries, sorted.
//!
//! A replacement that breaks the run's order merges the run into `sorted` in place, from the
//! back (O(entries), no second copy), and starts a new run. A lookup is a binary search in each.
//!
//! Invariants: `run` is strictly increasing; `sorted` is strictly increasing; no instruction is
//! in both.

/// One replaced instruction: its words are `words[start..start + len]`.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    start: usize,
    inst: u32,
    len: u32,
}

/// The replaced instructions of a module (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Replaced {
    words: Vec<u32>,
    sorted: Vec<Entry>,
    run: Vec<Entry>,
}

/// The entry of instruction `i` in the strictly increasing `entries`.
#[inline]
fn find(entries: &[Entry], i: u32) -> Result<usize, usize> {
    entries.binary_search_by_key(&i, |e| e.inst)
}

impl Replaced {
    /// The replacement words of instruction `i`, if it was replaced.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&[u32]> {
        let i = u32::try_from(i).ok()?;
        let e = match find(&self.run, i) {
            Ok(k) => self.run[k],
            Err(_) => self.sorted[find(&self.sorted, i).ok()?],
        };
        self.words.get(e.start..e.start + e.len as usize)
    }

    /// A reader of the replacements in instruction order: [`InOrder::get`] asked for
    /// non-decreasing instructions walks both vectors once (the writer asks for every replaced
    /// instruction of a module in order: a binary search each was 2.5% of native lowering's
    /// instructions on the 10 MB math-mid bench input).
    pub fn in_order(&self) -> InOrder<'_> {
        InOrder {
            replaced: self,
            run: 0,
            sorted: 0,
        }
    }

    /// Number of replaced instructions.
    pub fn len(&self) -> usize {
        self.sorted.len() + self.run.len()
    }

    /// Makes `words` (complete instructions, fewer than 2^32 words: a module is at most that
    /// long) the replacement of instruction `i` (an index of a module, below 2^32).
    pub fn insert(&mut self, i: usize, words: &[u32]) {
        let (Ok(inst), Ok(len)) = (u32::try_from(i), u32::try_from(words.len())) else {
            // (No module has such an instruction or such a replacement: see the preconditions.)
            return;
        };
        let entry = Entry {
            start: self.words.len(),
            inst,
            len,
        };
        self.words.extend_from_slice(words);
        if self.run.last().is_none_or(|last| last.inst < inst) {
            match find(&self.sorted, inst) {
                Ok(k) => self.sorted[k] = entry,
                Err(_) => self.run.push(entry),
            }
            return;
        }
        if let Ok(k) = find(&self.run, inst) {
            self.run[k] = entry;
            return;
        }
        if let Ok(k) = find(&self.sorted, inst) {
            self.sorted[k] = entry;
            return;
        }
        self.merge_run();
        self.run.push(entry);
    }

    /// The replacements of a batch made in increasing instruction order, as their words one
    /// after another and `(instruction, end of its words)` each: the words become the arena as
    /// they are (nothing is copied). Instructions not strictly increasing are inserted one by
    /// one instead.
    pub fn from_ordered(words: Vec<u32>, insts: Vec<(usize, usize)>) -> Replaced {
        let fits = |&(i, end): &(usize, usize)| {
            u32::try_from(i).is_ok() && u32::try_from(end).is_ok() && end <= words.len()
        };
        if !insts
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1)
            || !insts.iter().all(fits)
        {
            let mut r = Replaced::default();
            let mut start = 0;
            for (i, end) in insts {
                r.insert(i, words.get(start..end).unwrap_or_default());
                start = end;
            }
            return r;
        }
        let mut start = 0;
        // (Collected in place: an entry is the size of a pair.)
        let run = insts
            .into_iter()
            .map(|(i, end)| {
                let e = Entry {
                    start,
                    inst: i as u32,
                    len: (end - start) as u32,
                };
                start = end;
                e
            })
            .collect();
        Replaced {
            words,
            sorted: Vec::new(),
            run,
        }
    }

    /// Takes in the replacements of `batch` (a replacement of an instruction both hold is
    /// `batch`'s): moved when there are none yet, else copied.
    pub fn absorb(&mut self, batch: Replaced) {
        if self.len() == 0 {
            *self = batch;
            return;
        }
        self.reserve(batch.len(), batch.words.len());
        for e in batch.sorted.iter().chain(&batch.run) {
            self.insert(
                e.inst as usize,
                &batch.words[e.start..e.start + e.len as usize],
            );
        }
    }

    /// The instructions replaced, in no particular order.
    pub fn instructions(&self) -> impl Iterator<Item = usize> + '_ {
        (self.sorted.iter().chain(&self.run)).map(|e| e.inst as usize)
    }

    /// Room for `n` more replaced instructions of `words` words in all, exactly.
    pub fn reserve(&mut self, n: usize, words: usize) {
        self.run.reserve_exact(n);
        self.words.reserve_exact(words);
    }

    /// Moves the run into `sorted`: a merge from the back, in place (the run's entries are not
    /// in `sorted`).
    fn merge_run(&mut self) {
        let run = std::mem::take(&mut self.run);
        if self.sorted.is_empty() {
            self.sorted = run;
            return;
        }
        let n = self.sorted.len();
        self.sorted.resize(n + run.len(), Entry::default());
        // Fill from the back: `a` entries of `sorted` and `b` of `run` are still to be placed.
        let (mut a, mut b) = (n, run.len());
        while b > 0 {
            let take_run = a == 0 || self.sorted[a - 1].inst < run[b - 1].inst;
            let to = a + b - 1;
            if take_run {
                self.sorted[to] = run[b - 1];
                b -= 1;
            } else {
                self.sorted[to] = self.sorted[a - 1];
                a -= 1;
            }
        }
    }
}

/// See [`Replaced::in_order`]. Invariant: every entry before `run` in `run` and before `sorted`
/// in `sorted` is of an instruction below the last one asked for.
pub struct InOrder<'a> {
    replaced: &'a Replaced,
    run: usize,
    sorted: usize,
}

impl<'a> InOrder<'a> {
    /// [`Replaced::get`] of instruction `i`; `i` is at least the instruction of the previous
    /// call (else a replacement before it is not found).
    pub fn get(&mut self, i: usize) -> Option<&'a [u32]> {
        let i = u32::try_from(i).ok()?;
        let r = self.replaced;
        let next = |entries: &[Entry], k: &mut usize| {
            while entries.get(*k).is_some_and(|e| e.inst < i) {
                *k += 1;
            }
            entries.get(*k).filter(|e| e.inst == i).copied()
        };
        let e = next(&r.run, &mut self.run).or_else(|| next(&r.sorted, &mut self.sorted))?;
        r.words.get(e.start..e.start + e.len as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::Replaced;
    use std::collections::BTreeMap;

    /// Replacements in an order of runs, reversals and repeats, against a sorted map.
    #[test]
    fn lookups_agree_with_a_map_whatever_the_order_of_the_replacements() {
        let mut r = Replaced::default();
        let mut want: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
        let mut x = 7u32;
        let mut order: Vec<usize> = (0..300).map(|k| k * 3).collect(); // one increasing run
        order.extend((0..200).rev().map(|k| k * 5 + 1)); // decreasing: a merge each
        order.extend((0..300).map(|k| k * 2)); // again, over earlier ones
        for _ in 0..500 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            order.push((x >> 8) as usize % 1200);
        }
        for (n, &i) in order.iter().enumerate() {
            let words: Vec<u32> = (0..(n % 4) as u32).map(|w| w + n as u32).collect();
            r.insert(i, &words);
            want.insert(i, words);
            if n % 97 == 0 {
                for j in 0..1200 {
                    assert_eq!(
                        r.get(j),
                        want.get(&j).map(Vec::as_slice),
                        "at {j} after {n}"
                    );
                }
            }
        }
        let mut in_order = r.in_order();
        for j in 0..1300 {
            assert_eq!(r.get(j), want.get(&j).map(Vec::as_slice), "at {j}");
            assert_eq!(
                in_order.get(j),
                want.get(&j).map(Vec::as_slice),
                "in order at {j}"
            );
        }
        assert_eq!(r.len(), want.len());
        assert!(r.run.windows(2).all(|w| w[0].inst < w[1].inst));
        assert!(r.sorted.windows(2).all(|w| w[0].inst < w[1].inst));
    }

    /// A batch made in order and taken in as it is, then another absorbed over it, against
    /// inserting the same replacements one by one; a batch out of order is inserted.
    #[test]
    fn batches_agree_with_inserting_one_by_one() {
        let batch = |insts: &[usize], tag: u32| {
            let mut words = Vec::new();
            let mut ends = Vec::new();
            for (n, &i) in insts.iter().enumerate() {
                words.extend((0..(n % 3) as u32 + 1).map(|w| tag + w + i as u32));
                ends.push((i, words.len()));
            }
            (words, ends)
        };
        let mut want = Replaced::default();
        let mut r = Replaced::default();
        for (insts, tag) in [
            (&[2, 5, 6, 40][..], 100),
            (&[1, 5, 50, 51], 200),
            (&[9, 3], 300),
        ] {
            let (words, ends) = batch(insts, tag);
            let mut start = 0;
            for &(i, end) in &ends {
                want.insert(i, &words[start..end]);
                start = end;
            }
            r.absorb(Replaced::from_ordered(words, ends));
            for j in 0..60 {
                assert_eq!(r.get(j), want.get(j), "at {j} after the batch of {tag}");
            }
            assert_eq!(r.len(), want.len());
        }
        let mut instructions: Vec<usize> = r.instructions().collect();
        instructions.sort_unstable();
        assert_eq!(instructions, [1, 2, 3, 5, 6, 9, 40, 50, 51]);
    }
}
