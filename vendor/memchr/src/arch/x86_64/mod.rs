/*!
Vector algorithms for the `x86_64` target.
*/

pub mod avx2;
pub mod sse2;

pub(crate) mod memchr;

/// Whether AVX2 can be used, asked once per process with three `cpuid` leaves and `xgetbv`.
///
/// trail's change to memchr (see `vendor/README.md`): upstream asks
/// `std::is_x86_feature_detected!`, whose first call runs std's whole detector (about ten
/// `cpuid` leaves). Under a hypervisor every `cpuid` traps, about 5 µs each on the machines
/// trail's hooks were measured on, and a hook is a process of about a millisecond.
#[cfg(feature = "std")]
pub(crate) fn avx2_usable() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    static KNOWN: AtomicU8 = AtomicU8::new(0);
    match KNOWN.load(Ordering::Relaxed) {
        1 => return false,
        2 => return true,
        _ => {}
    }
    // SAFETY: `cpuid` exists on every x86_64 CPU. `xgetbv` runs only when leaf 1 says the OS
    // enabled it (OSXSAVE), and leaf 7 is read only when leaf 0 says it exists (past the
    // highest leaf, a CPU answers with another leaf's bits).
    let usable = unsafe {
        use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
        let one = __cpuid(1);
        let osxsave = one.ecx & (1 << 27) != 0;
        let avx = one.ecx & (1 << 28) != 0;
        // XCR0 bits 1 and 2: the OS saves the SSE and the AVX (YMM) state.
        osxsave
            && avx
            && (_xgetbv(0) & 0b110) == 0b110
            && __cpuid(0).eax >= 7
            && __cpuid_count(7, 0).ebx & (1 << 5) != 0
    };
    KNOWN.store(if usable { 2 } else { 1 }, Ordering::Relaxed);
    usable
}
