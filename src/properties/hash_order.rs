//! The orders in which LLVM's hash tables of strings iterate, where DPC++ writes a property
//! set (or joins a value) in such an order: their buckets' order.
//!
//! Both tables place a key at the low bits of its hash and probe quadratically on collision
//! (bucket `b`, then `b + 1`, `b + 3`, `b + 6`, …, modulo the bucket count), and double their
//! buckets when three quarters would be full, placing the keys again in bucket order. They differ
//! in the hash, the first size and when they grow:
//!
//! * `StringSet` (a `StringMap`, `StringMapImpl::LookupBucketFor` and `RehashTable`): the
//!   32-bit XXH3 hash (`xxh3_64bits`) of the key; 16 buckets; grows after an insertion leaves
//!   more than three quarters full.
//! * `DenseMap<StringRef, …>` (`DenseMapBase::LookupBucketFor`, `InsertIntoBucketImpl`, `grow`):
//!   `hash_value(StringRef)`, the XXH3 hash XORed with LLVM's fixed execution seed, cut to 32
//!   bits; 64 buckets; grows before an insertion that would fill three quarters.
//!
//! Precondition: the keys are given in the order they were inserted; repeats are ignored.

/// LLVM's execution seed of release builds (`hashing::detail::get_execution_seed`).
const LLVM_EXECUTION_SEED: u64 = 0xff51_afd7_ed55_8ccd;

/// The order in which LLVM's `StringSet` iterates `names` inserted in this order.
pub(crate) fn string_set_order<'a>(names: &[&'a str]) -> Vec<&'a str> {
    bucket_order(
        names,
        16,
        |n| xxhash_rust::xxh3::xxh3_64(n.as_bytes()) as u32,
        false,
    )
}

/// The order in which LLVM's `DenseMap<StringRef, …>` iterates `names` inserted in this order.
pub(crate) fn dense_map_order<'a>(names: &[&'a str]) -> Vec<&'a str> {
    bucket_order(
        names,
        64,
        |n| (xxhash_rust::xxh3::xxh3_64(n.as_bytes()) ^ LLVM_EXECUTION_SEED) as u32,
        true,
    )
}

/// The table's buckets after inserting `names` (see the module docs): `first` buckets, growing
/// before an insertion that would fill three quarters (`grow_before`) or after one that left
/// more than three quarters full.
fn bucket_order<'a>(
    names: &[&'a str],
    first: usize,
    hash: impl Fn(&str) -> u32,
    grow_before: bool,
) -> Vec<&'a str> {
    fn place<'a>(table: &mut [Option<(u32, &'a str)>], hash: u32, name: &'a str) {
        let mask = table.len() - 1;
        let mut bucket = hash as usize & mask;
        let mut probe = 1;
        while table[bucket].is_some() {
            bucket = (bucket + probe) & mask;
            probe += 1;
        }
        table[bucket] = Some((hash, name));
    }
    fn grown<'a>(table: &[Option<(u32, &'a str)>]) -> Vec<Option<(u32, &'a str)>> {
        let mut grown = vec![None; table.len() * 2];
        for &(hash, name) in table.iter().flatten() {
            place(&mut grown, hash, name);
        }
        grown
    }
    let mut table: Vec<Option<(u32, &str)>> = vec![None; first];
    let mut items = 0usize;
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for &name in names {
        if !seen.insert(name) {
            continue;
        }
        if grow_before && (items + 1) * 4 >= table.len() * 3 {
            table = grown(&table);
        }
        place(&mut table, hash(name), name);
        items += 1;
        if !grow_before && items * 4 > table.len() * 3 {
            table = grown(&table);
        }
    }
    table.into_iter().flatten().map(|(_, n)| n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DPC++ 2026.2's joins (testdata/postlink `vfunc`, `vfunc-sets`: `uses-virtual-functions-set`
    /// of KConstruct, KMake and KAB), and a set that outgrows the first table.
    #[test]
    fn sets_are_joined_in_llvm_string_set_order() {
        assert_eq!(
            string_set_order(&["_ZTSv", "_ZTS4SetB"]),
            ["_ZTS4SetB", "_ZTSv"]
        );
        assert_eq!(
            string_set_order(&["_ZTS4SetA", "_ZTS4SetB", "_ZTSv", "_ZTS4SetB"]),
            ["_ZTS4SetB", "_ZTSv", "_ZTS4SetA"]
        );
        assert_eq!(
            string_set_order(&["_ZTS4SetA", "_ZTS4SetB"]),
            ["_ZTS4SetB", "_ZTS4SetA"]
        );
        holds_each_name_once(string_set_order, 40);
    }

    /// DPC++ 2026.2's `[SYCL/kernel param opt]` of `multi`'s unsplit image: its kernels in
    /// module order in, the file's order out; and 100 names, which outgrow the first table.
    #[test]
    fn kernel_masks_come_in_llvm_dense_map_order() {
        let wrapper = "_ZTSN4sycl3_V16detail19__pf_kernel_wrapperI6KRangeEE";
        let rounded =
            "_ZTSN4sycl3_V16detail18RoundedRangeKernelINS0_4itemILi1ELb1EEELi1E10AddFunctorEE";
        let module_order = [
            "_ZTS7KSingle",
            wrapper,
            "_ZTS6KRange",
            "_ZTS3KNd",
            rounded,
            "_ZTS10AddFunctor",
            "_ZTS9NdFunctor",
        ];
        assert_eq!(
            dense_map_order(&module_order),
            [
                "_ZTS3KNd",
                "_ZTS7KSingle",
                rounded,
                wrapper,
                "_ZTS9NdFunctor",
                "_ZTS10AddFunctor",
                "_ZTS6KRange",
            ]
        );
        holds_each_name_once(dense_map_order, 100);
    }

    /// `count` names, enough to outgrow the first table: each comes out once.
    fn holds_each_name_once(order: for<'a> fn(&[&'a str]) -> Vec<&'a str>, count: usize) {
        let many: Vec<String> = (0..count).map(|k| format!("_ZTS{k}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let mut ordered = order(&names);
        ordered.sort_unstable();
        let mut all = names.clone();
        all.sort_unstable();
        assert_eq!(ordered, all);
    }
}
