//! Serializable views of the back end's values for the templates.

#[derive(serde::Serialize)]
pub struct K {
    pub name: String,
    pub params: Vec<String>,
    pub ids: Vec<String>,
    pub body: String,
    pub launch_params: Vec<String>,
    pub grid: Vec<String>,
    pub block: Vec<i64>,
    pub args: Vec<String>,
    pub device_fn: bool,
    /// CUDA's `__launch_bounds__`: the block's threads where they are so
    /// many that registers could run out (512 or more: 128 registers
    /// each), so that nvcc spills rather than the launch failing.
    pub bounds: Option<i64>,
    /// OpenCL's `reqd_work_group_size`: the work-group every launch of
    /// the kernel uses, x first, three values.
    pub work_group: Vec<i64>,
    /// Where the device may refuse that work-group (a kernel that plays a
    /// loop's launches, checked before it runs): its work-items. The
    /// kernel requires its work-group only where the device allows that
    /// many (`PENCILC_MAX_GROUP`, which the program's build defines), so
    /// that it builds everywhere.
    pub group_checked: Option<i64>,
}
#[derive(serde::Serialize)]
pub struct Buffer {
    pub dev: String,
    pub host: String,
    /// Bytes allocated on the device.
    pub alloc: String,
    /// Bytes each copy moves, from the byte `first` of the device
    /// buffer (0 where none).
    pub size: String,
    pub first: Option<String>,
    /// The host address that byte 0 of the device buffer stands for
    /// (`void *`): what a zero-copy buffer wraps.
    pub base: String,
    pub elem_type: String,
    pub copy_in: bool,
    /// Where the copy in is needed only under a condition on the
    /// parameters (C), the condition.
    pub copy_in_if: Option<String>,
    pub copy_out: bool,
}
/// A region's device temporary (`scratch_buffers`).
#[derive(serde::Serialize)]
pub struct Scratch {
    pub buffer: String,
    pub elem_type: String,
}
#[derive(serde::Serialize)]
pub struct Arg {
    pub kind: String,
    pub ctype: String,
    pub value: String,
}
