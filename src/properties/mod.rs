//! DPC++'s property sets of a device image, one source file per set, and the `.prop` text.
//!
//! `compute` asks every source in DPC++'s order (`computeModuleProperties`: device
//! requirements, specialization constants and their default values, kernel param opt, exported
//! symbols, kernel names, imported symbols, program metadata, misc properties, implicit local
//! arg, work group dynamic local mem, device globals, virtual functions); a source returns its set
//! or `None` when DPC++ writes no such set for the image. A set a later source names again (misc
//! properties) takes the later properties in its first place, as DPC++'s `MapVector` does.
//!
//! Each source reads an `ImageContext`: the image's module (before spec constants are lowered:
//! lowering changes nothing a property is computed from), its entry points, the spec-constant
//! map lowering produced, and the properties carried from `--input-prop` (`Carried`) for what
//! the SPIR-V does not hold, and the function attributes and metadata of `NonSemantic.AuxData`
//! (`auxdata.rs`) for what neither holds. Order: the SPIR-V, then `--input-prop`, then AuxData
//! (docs/split.md, "Properties from NonSemantic.AuxData").

pub(crate) mod auxdata;
pub(crate) mod device_globals;
pub(crate) mod device_requirements;
pub(crate) mod hash_order;
pub(crate) mod kernel_param_opt;
pub(crate) mod local_args;
pub(crate) mod misc;
pub(crate) mod program_metadata;
pub(crate) mod spec_constants;
pub(crate) mod symbols;
pub mod text;
pub(crate) mod virtual_functions;

use crate::module::idhash::IdMap;
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use crate::sidecar;
use crate::specmap::SpecMap;
use std::cell::RefCell;

/// A property value as `PropertySetIO` stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Type 1.
    Uint32(u32),
    /// Type 2: `bits` bits of `data` (written as the 8-byte bit count, then the data).
    Bytes {
        /// Number of meaningful bits in `data`.
        bits: u64,
        /// The bytes.
        data: Vec<u8>,
    },
}

impl Value {
    /// A byte array of whole bytes.
    pub(crate) fn bytes(data: Vec<u8>) -> Value {
        Value::Bytes {
            bits: data.len() as u64 * 8,
            data,
        }
    }

    /// A byte array of little-endian u32s.
    pub(crate) fn u32s(values: &[u32]) -> Value {
        Value::bytes(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }

    /// A byte array of little-endian u64s.
    pub(crate) fn u64s(values: &[u64]) -> Value {
        Value::bytes(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }

    /// The value as u32s: a uint32, or a byte array read as little-endian u32s (a partial last
    /// word left out).
    pub(crate) fn to_u32s(&self) -> Vec<u32> {
        match self {
            Value::Uint32(v) => vec![*v],
            Value::Bytes { data, .. } => data
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        }
    }
}

/// A named, ordered list of properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertySet {
    /// The set's name, e.g. `SYCL/specialization constants`.
    pub name: String,
    /// `(name, value)` pairs in file order.
    pub properties: Vec<(String, Value)>,
}

impl PropertySet {
    pub(crate) fn new(name: &str) -> PropertySet {
        PropertySet {
            name: name.into(),
            properties: Vec::new(),
        }
    }

    /// Adds a property; one named before keeps its place and takes the new value.
    pub(crate) fn insert(&mut self, name: &str, value: Value) {
        match self.properties.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.properties.push((name.into(), value)),
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

pub(crate) const DEVICE_REQUIREMENTS: &str = "SYCL/device requirements";
pub(crate) const KERNEL_PARAM_OPT: &str = "SYCL/kernel param opt";
pub(crate) const EXPORTED_SYMBOLS: &str = "SYCL/exported symbols";
pub(crate) const DEVICELIB_METADATA: &str = "SYCL/devicelib metadata";
pub(crate) const KERNEL_NAMES: &str = "SYCL/kernel names";
pub(crate) const IMPORTED_SYMBOLS: &str = "SYCL/imported symbols";
pub(crate) const PROGRAM_METADATA: &str = "SYCL/program metadata";
pub(crate) const MISC_PROPERTIES: &str = "SYCL/misc properties";
pub(crate) const IMPLICIT_LOCAL_ARG: &str = "SYCL/implicit local arg";
pub(crate) const WORK_GROUP_DYNAMIC_LOCAL_MEM: &str = "SYCL/work group dynamic local mem";
pub(crate) const DEVICE_GLOBALS: &str = "SYCL/device globals";
pub(crate) const VIRTUAL_FUNCTIONS: &str = "SYCL/virtual functions";

/// What an entry point of an image is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// An `OpEntryPoint` (a SYCL kernel).
    Kernel,
    /// A SYCL_EXTERNAL function (an `Export` definition) with device-image dependencies allowed.
    Exported,
    /// An `indirectly-callable` function: an `Export` definition whose address the module takes
    /// (`OpConstantFunctionPointerINTEL`).
    Virtual,
}

/// An entry point of an image.
#[derive(Clone, Debug)]
pub struct ImageEntry {
    /// Function id in the image (ids are the split module's).
    pub id: u32,
    /// Its name: the `OpEntryPoint` name of a kernel, the linkage name of others.
    pub name: String,
    /// What kind of entry point it is.
    pub kind: EntryKind,
    /// The input module it came from.
    pub input: usize,
}

/// Properties carried from the inputs' property files (`--input-prop`), for what the SPIR-V does
/// not hold.
#[derive(Clone, Debug, Default)]
pub(crate) struct Carried {
    /// Each input's sets (empty for an input without a property file).
    pub inputs: Vec<Vec<PropertySet>>,
    /// Each input's one kernel that uses cooperative matrices, when exactly one does
    /// ([`crate::split::group::single_matrix_kernels`]): the kernel its file's `joint_matrix`
    /// strings describe.
    pub matrix_kernel: Vec<Option<u32>>,
    /// The function attributes and metadata of `NonSemantic.AuxData`, by function id (ids of the
    /// split module, which its images keep).
    pub aux: auxdata::AuxData,
    /// The `-O` level the split module shows ([`misc::source_opt_level`]): what `optLevel` is
    /// where neither a property file nor AuxData gives it.
    pub opt_level: u32,
    /// The `idQueriesRange` the split module shows ([`misc::source_id_queries_range`]): what it
    /// is for an image none of whose inputs came with a property file.
    pub id_queries_range: Option<u32>,
    /// Each kernel's work-group local memory as the split module shows it
    /// ([`local_args::source_local_memory`]): what its sets are when its input came without a
    /// property file.
    pub local_memory: crate::module::idhash::IdMap<u32, local_args::LocalMemory>,
    /// Each input's spec constants, read from its sets once (`None`: its sets describe none, or
    /// do not parse as spec constants).
    pub spec_names: Vec<Option<crate::info::names::SymbolNames>>,
    /// Each input's sets by name, each with its properties by name (positions in `inputs`):
    /// where [`Carried::get`] finds them (property files of big programs name thousands of
    /// functions; an image looks several up per function). Empty until [`Carried::index_inputs`].
    pub by_name: Vec<SetIndex>,
}

/// One input's sets by name: the position of the first set of a name, and of the first property
/// of a name in it (as a search in file order finds them).
pub(crate) type SetIndex =
    std::collections::HashMap<String, (usize, std::collections::HashMap<String, usize>)>;

impl Carried {
    /// Whether input `k` came with a property file.
    pub(crate) fn has(&self, k: usize) -> bool {
        self.inputs.get(k).is_some_and(|s| !s.is_empty())
    }

    /// Property `name` of set `set` in input `k`'s file.
    pub(crate) fn get(&self, k: usize, set: &str, name: &str) -> Option<&Value> {
        let Some(by_name) = self.by_name.get(k) else {
            return self.set(k, set)?.get(name);
        };
        let (s, properties) = by_name.get(set)?;
        let (s, p) = (*s, *properties.get(name)?);
        self.inputs
            .get(k)?
            .get(s)?
            .properties
            .get(p)
            .map(|(_, v)| v)
    }

    /// Set `set` of input `k`'s file.
    pub(crate) fn set(&self, k: usize, set: &str) -> Option<&PropertySet> {
        self.inputs.get(k)?.iter().find(|s| s.name == set)
    }

    /// Reads each input's spec constants into [`Carried::spec_names`] and indexes its sets and
    /// properties by name ([`Carried::by_name`]).
    pub(crate) fn index_inputs(&mut self) {
        self.by_name = (self.inputs.iter())
            .map(|sets| {
                let mut index = SetIndex::new();
                for (s, set) in sets.iter().enumerate() {
                    index.entry(set.name.clone()).or_insert_with(|| {
                        let mut properties = std::collections::HashMap::new();
                        for (p, (name, _)) in set.properties.iter().enumerate() {
                            properties.entry(name.clone()).or_insert(p);
                        }
                        (s, properties)
                    });
                }
                index
            })
            .collect();
        self.spec_names = (self.inputs.iter())
            .map(|sets| {
                crate::info::names::SymbolNames::from_property_sets("", sets)
                    .ok()
                    .filter(|names| !names.constants.is_empty())
            })
            .collect();
    }

    /// Function `f`'s `what` that no execution mode gives, named `name`: `<name>@<key>` of
    /// `[SYCL/program metadata]` in the file of the first of `inputs` that has it, else its
    /// `NonSemantic.AuxData` metadata.
    pub(crate) fn function_metadata(
        &self,
        inputs: &[usize],
        f: u32,
        name: &str,
        what: FunctionMetadata,
    ) -> Option<Value> {
        let key = format!("{name}@{}", what.key());
        if let Some(v) = inputs
            .iter()
            .find_map(|&k| self.get(k, PROGRAM_METADATA, &key))
        {
            return Some(v.clone());
        }
        let values = self.aux.integers(f, what.aux_name())?;
        let values: Vec<u32> = values
            .iter()
            .filter_map(|v| v.zext())
            .map(|v| v as u32)
            .collect();
        what.value(&values)
    }

    /// Input `k`'s spec constants ([`Carried::spec_names`]).
    pub(crate) fn spec_names(&self, k: usize) -> Option<&crate::info::names::SymbolNames> {
        self.spec_names.get(k)?.as_ref()
    }
}

/// Options that decide which sets are written.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Emit {
    pub kernel_names: bool,
    pub program_metadata: bool,
    pub allow_dependencies: bool,
    /// The split mode is `off` (`reqd_work_group_size_uint64_t` is then dropped).
    pub split_off: bool,
}

/// Execution modes and GRF sizes of an image's functions, found in one pass over its preamble
/// and annotations (sources look them up per entry point).
#[derive(Default)]
pub(crate) struct ImageFacts {
    /// `OpExecutionMode %f mode literals…` by function: `(mode, literals)`.
    pub execution_modes: crate::module::idhash::IdMap<u32, Vec<(u32, Vec<u32>)>>,
    /// The GRF size of each function decorated `UserSemantic "num-thread-per-eu N"`.
    pub grf_sizes: crate::module::idhash::IdMap<u32, u32>,
}

impl ImageFacts {
    pub(crate) fn build(module: &Module, index: &Index) -> ImageFacts {
        let mut facts = ImageFacts::default();
        for i in 0..index.annotation_end.min(module.len()) {
            let Some(w) = module.inst(i) else { continue };
            if w.len() < 3 {
                continue;
            }
            if inst::is(w, spirv::Op::ExecutionMode) {
                facts
                    .execution_modes
                    .entry(w[1])
                    .or_default()
                    .push((w[2], w[3..].to_vec()));
            } else if let Some(g) = misc::grf_size_of(w) {
                facts.grf_sizes.entry(w[1]).or_insert(g);
            }
        }
        facts
    }

    /// The literals of `OpExecutionMode %id <number>` (modes the `spirv` crate does not name).
    pub(crate) fn mode_number(&self, id: u32, mode: u32) -> Option<&[u32]> {
        self.execution_modes
            .get(&id)?
            .iter()
            .find(|(m, _)| *m == mode)
            .map(|(_, v)| v.as_slice())
    }
}

/// Everything a property source may read about one image.
pub(crate) struct ImageContext<'a> {
    /// The image before spec constants were lowered.
    pub module: &'a Module,
    pub index: &'a Index,
    pub facts: &'a ImageFacts,
    /// Entry points in module order.
    pub entries: &'a [ImageEntry],
    /// The ESIMD half of a split.
    pub esimd: bool,
    /// The spec constants lowering found in the image, and whether they were replaced with their
    /// default values.
    pub spec: Option<(&'a SpecMap, bool)>,
    pub carried: &'a Carried,
    pub emit: Emit,
    /// The inputs the image's entry points come from.
    pub inputs: &'a [usize],
    /// Notes for the user (each said once per run by the caller).
    pub notes: &'a RefCell<Vec<crate::Diagnostic>>,
}

impl ImageContext<'_> {
    pub(crate) fn note(&self, note: crate::Diagnostic) {
        crate::diagnostic::push_once(&mut self.notes.borrow_mut(), note);
    }

    /// The kernels (entry points of kind [`EntryKind::Kernel`]).
    pub(crate) fn kernels(&self) -> impl Iterator<Item = &ImageEntry> {
        self.entries.iter().filter(|e| e.kind == EntryKind::Kernel)
    }

    /// A property keyed by an entry point, carried from its input's file.
    pub(crate) fn carried_for(&self, entry: &ImageEntry, set: &str, name: &str) -> Option<&Value> {
        self.carried.get(entry.input, set, name)
    }

    /// An image-wide property carried from the file of the first input the image comes from.
    pub(crate) fn carried_image_wide(&self, set: &str, name: &str) -> Option<&Value> {
        self.inputs
            .iter()
            .find_map(|&k| self.carried.get(k, set, name))
    }

    /// Whether any input of the image came with a property file.
    pub(crate) fn has_carried(&self) -> bool {
        self.inputs.iter().any(|&k| self.carried.has(k))
    }

    /// Whether `NonSemantic.AuxData` describes every entry point of the image (and there is
    /// one).
    pub(crate) fn aux_describes_entries(&self) -> bool {
        !self.entries.is_empty()
            && self
                .entries
                .iter()
                .all(|e| self.carried.aux.describes(e.id))
    }

    /// String attribute `name` of an entry point, from `NonSemantic.AuxData`.
    pub(crate) fn aux_attribute(&self, entry: &ImageEntry, name: &str) -> Option<&str> {
        self.carried.aux.attribute(entry.id, name)
    }
}

/// A function's work-group metadata (DPC++'s `[SYCL/program metadata]` keys `<name>@<key>`, in
/// that set's order). SPIR-V holds some of it as an entry point's execution modes, and none of
/// it for other functions (a `SYCL_EXTERNAL` helper's `[[sycl::reqd_work_group_size]]`, an
/// exported function's `[[sycl::reqd_sub_group_size]]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FunctionMetadata {
    ReqdWorkGroupSize,
    ReqdSubGroupSize,
    WorkGroupNumDim,
    MaxWorkGroupSize,
    MaxLinearWorkGroupSize,
}

impl FunctionMetadata {
    /// Every key, in `[SYCL/program metadata]` order.
    pub(crate) const ALL: [FunctionMetadata; 5] = [
        FunctionMetadata::ReqdWorkGroupSize,
        FunctionMetadata::ReqdSubGroupSize,
        FunctionMetadata::WorkGroupNumDim,
        FunctionMetadata::MaxWorkGroupSize,
        FunctionMetadata::MaxLinearWorkGroupSize,
    ];

    /// The key after `<name>@`.
    pub(crate) fn key(self) -> &'static str {
        match self {
            FunctionMetadata::ReqdWorkGroupSize => "reqd_work_group_size",
            FunctionMetadata::ReqdSubGroupSize => "reqd_sub_group_size",
            FunctionMetadata::WorkGroupNumDim => "work_group_num_dim",
            FunctionMetadata::MaxWorkGroupSize => "max_work_group_size",
            FunctionMetadata::MaxLinearWorkGroupSize => "max_linear_work_group_size",
        }
    }

    /// The LLVM metadata's name (in `NonSemantic.AuxData`).
    fn aux_name(self) -> &'static str {
        match self {
            FunctionMetadata::ReqdSubGroupSize => "intel_reqd_sub_group_size",
            other => other.key(),
        }
    }

    /// The execution mode an entry point holds it as (`MaxWorkgroupSizeINTEL` is 5893).
    pub(crate) fn mode(self) -> Option<u32> {
        match self {
            FunctionMetadata::ReqdWorkGroupSize => Some(spirv::ExecutionMode::LocalSize as u32),
            FunctionMetadata::ReqdSubGroupSize => Some(spirv::ExecutionMode::SubgroupSize as u32),
            FunctionMetadata::MaxWorkGroupSize => Some(5893),
            _ => None,
        }
    }

    /// Its property value from `values`: one uint32, or a byte array of u32s for the sizes
    /// (`None` without values).
    fn value(self, values: &[u32]) -> Option<Value> {
        match self {
            FunctionMetadata::ReqdWorkGroupSize | FunctionMetadata::MaxWorkGroupSize => {
                (!values.is_empty()).then(|| Value::u32s(values))
            }
            _ => values.first().map(|&v| Value::Uint32(v)),
        }
    }
}

impl ImageContext<'_> {
    /// Function `f`'s `what`, named `name` (`entry`: when it is one of the image's entry
    /// points): its execution mode, else the value carried from its input's file (an entry
    /// point's) or from the file of the first of the image's inputs that has one (another
    /// function's), else its `NonSemantic.AuxData` metadata.
    pub(crate) fn function_metadata(
        &self,
        f: u32,
        name: &str,
        entry: Option<&ImageEntry>,
        what: FunctionMetadata,
    ) -> Option<Value> {
        if let Some(v) = what.mode().and_then(|m| self.facts.mode_number(f, m)) {
            return what.value(v);
        }
        let inputs = match entry {
            Some(e) => std::slice::from_ref(&e.input),
            None => self.inputs,
        };
        self.carried.function_metadata(inputs, f, name, what)
    }

    /// The image's function definitions in module order, each with its name and its entry point
    /// (if it is one); functions without a name are left out, and so is one named as an entry
    /// point it is not (a kernel body the translator wrapped in an entry point of its name).
    pub(crate) fn named_functions(&self) -> Vec<(u32, String, Option<&ImageEntry>)> {
        // (Looked up, not searched for each function: an image of thousands of kernels.)
        let mut by_id: IdMap<u32, &ImageEntry> = IdMap::default();
        for e in self.entries {
            by_id.entry(e.id).or_insert(e);
        }
        let names: std::collections::HashSet<&str> =
            self.entries.iter().map(|e| e.name.as_str()).collect();
        (self.index.functions.iter())
            .filter(|f| !f.is_declaration)
            .filter_map(|f| {
                let entry = by_id.get(&f.id).copied();
                let name = match entry {
                    Some(e) => e.name.clone(),
                    None => self.index.display_name(f.id),
                };
                let wrapped = entry.is_none() && names.contains(name.as_str());
                (!name.starts_with('%') && !wrapped).then_some((f.id, name, entry))
            })
            .collect()
    }
}

/// One source: the set it writes for an image, if any.
pub(crate) type Source = fn(&ImageContext<'_>) -> Option<PropertySet>;

/// The sources in DPC++'s order.
pub(crate) const REGISTRY: &[Source] = &[
    device_requirements::set,
    spec_constants::constants,
    spec_constants::default_values,
    kernel_param_opt::set,
    symbols::exported,
    symbols::kernel_names,
    symbols::imported,
    program_metadata::set,
    misc::early,
    local_args::implicit_local_arg,
    local_args::work_group_dynamic_local_mem,
    device_globals::set,
    misc::late,
    virtual_functions::set,
];

/// The property sets of an image, in DPC++'s order.
pub(crate) fn compute(ctx: &ImageContext<'_>) -> Vec<PropertySet> {
    let mut out: Vec<PropertySet> = Vec::new();
    for source in REGISTRY {
        let Some(set) = source(ctx) else { continue };
        match out.iter_mut().find(|s| s.name == set.name) {
            Some(existing) => {
                for (n, v) in set.properties {
                    existing.insert(&n, v);
                }
            }
            None => out.push(set),
        }
    }
    out
}

/// The sets' names in DPC++'s order, for placing a set computed apart ([`with_spec_constants`]);
/// `MISC_PROPERTIES_LATE` stands for where a misc set first made by the late misc source goes.
const SET_ORDER: &[&str] = &[
    DEVICE_REQUIREMENTS,
    sidecar::SPEC_CONSTANTS,
    sidecar::SPEC_CONSTANTS_DEFAULT_VALUES,
    KERNEL_PARAM_OPT,
    EXPORTED_SYMBOLS,
    KERNEL_NAMES,
    IMPORTED_SYMBOLS,
    PROGRAM_METADATA,
    MISC_PROPERTIES,
    IMPLICIT_LOCAL_ARG,
    WORK_GROUP_DYNAMIC_LOCAL_MEM,
    DEVICE_GLOBALS,
    MISC_PROPERTIES_LATE,
    VIRTUAL_FUNCTIONS,
];
const MISC_PROPERTIES_LATE: &str = "(misc properties, late)";

/// Adds the spec-constant sets of `map` to sets [`compute`]d without them (an [`ImageContext`]
/// whose `spec` was `None`), where [`compute`] with them would have put them: the result is the
/// same. (The split computes an image's other sets before lowering it, so that the image and its
/// index are not held while it is lowered.)
pub(crate) fn with_spec_constants(
    mut sets: Vec<PropertySet>,
    map: &SpecMap,
    replaced_with_default: bool,
) -> Vec<PropertySet> {
    fn rank(name: &str) -> usize {
        SET_ORDER
            .iter()
            .position(|n| *n == name)
            .unwrap_or(usize::MAX)
    }
    fn place(sets: &mut Vec<PropertySet>, set: PropertySet, at: usize) {
        let k = sets
            .iter()
            .position(|s| rank(&s.name) > at)
            .unwrap_or(sets.len());
        sets.insert(k, set);
    }
    for set in crate::sidecar::property_sets(map, replaced_with_default) {
        if set.name == MISC_PROPERTIES {
            continue;
        }
        let at = rank(&set.name);
        place(&mut sets, set, at);
    }
    if replaced_with_default && !map.constants.is_empty() {
        let late = (
            String::from("specConstsReplacedWithDefault"),
            Value::Uint32(1),
        );
        match sets.iter_mut().find(|s| s.name == MISC_PROPERTIES) {
            Some(misc) => misc.insert(&late.0, late.1),
            None => place(
                &mut sets,
                PropertySet {
                    name: MISC_PROPERTIES.into(),
                    properties: vec![late],
                },
                rank(MISC_PROPERTIES_LATE),
            ),
        }
    }
    sets
}

/// The set `name` with `properties`, or `None` when there are none.
pub(crate) fn non_empty(name: &str, properties: Vec<(String, Value)>) -> Option<PropertySet> {
    (!properties.is_empty()).then(|| PropertySet {
        name: name.into(),
        properties,
    })
}
