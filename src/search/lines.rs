//! The memory of the transposition table: zeroed cache lines, aligned and, on
//! Linux, advised for transparent huge pages when asked.
//!
//! A large table is read at random; with 4 KiB pages nearly every probe also misses
//! the TLB. Huge pages (2 MiB) cut those misses, which matters more the larger the
//! table. But where the system defragments memory for advised huge pages on the
//! first touch (`defrag` set to `madvise`, a common default), each first touch of
//! a 2 MiB page can stall for milliseconds: a 100 ms search on a fresh 1 GiB table
//! took 0.9 s. So only long proofs (`solve`) ask for them; a search under a clock
//! does not. Memory is zeroed by the system and touched when first used, or all
//! at once by [`Lines::fault_in`] (the engine's `newgame`, while no clock runs).
//!
//! Obtaining the memory never aborts: a size that cannot be had is an error the
//! caller handles ([`Lines::try_zeroed`]).

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// Why the memory for a table cannot be had.
#[derive(Debug)]
pub enum MemoryError {
    /// The size asked for does not fit in the address space.
    TooLarge {
        /// What was asked for, in words.
        asked: String,
    },
    /// The system refused the memory.
    Refused {
        /// Bytes asked for.
        bytes: usize,
        /// The system's reason, where it gives one.
        reason: Option<std::io::Error>,
    },
}

impl std::fmt::Display for MemoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemoryError::TooLarge { asked } => {
                write!(f, "{asked} do not fit in the address space")
            }
            MemoryError::Refused {
                bytes,
                reason: Some(reason),
            } => write!(f, "the system refused {bytes} bytes of memory ({reason})"),
            MemoryError::Refused {
                bytes,
                reason: None,
            } => write!(f, "the system refused {bytes} bytes of memory"),
        }
    }
}

impl std::error::Error for MemoryError {}

/// One 64-byte line of eight words; all-zero is a valid (empty) line.
#[repr(align(64))]
pub struct Line(pub [AtomicU64; 8]);

/// Huge pages are 2 MiB on x86-64 and most other platforms.
const HUGE_PAGE: usize = 2 << 20;

/// An owned, zero-initialised array of lines.
pub struct Lines {
    ptr: NonNull<Line>,
    len: usize,
    /// How the memory was obtained, to give it back the same way.
    source: Source,
}

enum Source {
    /// From the global allocator with this layout.
    Heap(Layout),
    /// Mapped anonymously: the mapping's start and length (Linux only).
    #[cfg(target_os = "linux")]
    Mapped(*mut libc::c_void, usize),
}

// SAFETY: `Lines` owns its memory exclusively, like a `Box<[Line]>`, and `Line`
// is made of atomics, which are `Send` and `Sync`.
unsafe impl Send for Lines {}
// SAFETY: as above; shared access only ever goes through the atomics.
unsafe impl Sync for Lines {}

impl Lines {
    /// `len` zeroed lines (at least one), or why the memory cannot be had.
    pub fn try_zeroed(len: usize) -> Result<Lines, MemoryError> {
        Self::try_zeroed_with(len, false)
    }

    /// `len` zeroed lines (at least one), on huge pages where the system has them
    /// if `huge_pages` is set, or why the memory cannot be had.
    pub fn try_zeroed_with(len: usize, huge_pages: bool) -> Result<Lines, MemoryError> {
        let len = len.max(1);
        let too_large = || MemoryError::TooLarge {
            asked: format!("{len} table lines"),
        };
        let bytes = len.checked_mul(size_of::<Line>()).ok_or_else(too_large)?;
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            // A mapping the system refuses is final: the heap would refuse it too.
            return Self::mapped(len, bytes, huge_pages);
        }
        let layout = Layout::from_size_align(bytes, align_of::<Line>()).map_err(|_| too_large())?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc_zeroed(layout) };
        let ptr = NonNull::new(raw.cast::<Line>()).ok_or(MemoryError::Refused {
            bytes,
            reason: None,
        })?;
        Ok(Lines {
            ptr,
            len,
            source: Source::Heap(layout),
        })
    }

    /// Has the system supply every page of the lines now, so that no later probe
    /// waits for a page fault and the zeroing of a fresh page. A search on a fresh
    /// table otherwise pays that on its first touch of each page: a 100 ms search
    /// on a fresh 64 MiB table searched a sixth of the nodes of the next one.
    /// Writes only zeros into lines that are still empty, so it changes no entry;
    /// call it on a table no search is using.
    pub fn fault_in(&self) {
        #[cfg(target_os = "linux")]
        if let Source::Mapped(..) = self.source {
            let bytes = self.len * size_of::<Line>();
            // SAFETY: the range lies inside the private anonymous mapping owned by
            // `self`; populating it only maps zeroed pages where none are yet.
            let done = unsafe {
                libc::madvise(self.ptr.as_ptr().cast(), bytes, libc::MADV_POPULATE_WRITE)
            };
            if done == 0 {
                return;
            }
            // Kernels before 5.14 lack MADV_POPULATE_WRITE: touch each page instead.
        }
        let lines_a_page = (4096 / size_of::<Line>()).max(1);
        for line in self.iter().step_by(lines_a_page) {
            line.0[0].fetch_or(0, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Empties every line. Mapped memory is handed back to the system, which
    /// zeroes it again only where it is next used, so this touches nothing.
    pub fn reset(&mut self) {
        #[cfg(target_os = "linux")]
        if let Source::Mapped(..) = self.source {
            let bytes = self.len * size_of::<Line>();
            // SAFETY: the lines lie inside a private anonymous mapping owned by
            // `self`, borrowed mutably here, so no one reads them meanwhile; after
            // MADV_DONTNEED such a mapping reads as zeros, which are empty lines.
            let done =
                unsafe { libc::madvise(self.ptr.as_ptr().cast(), bytes, libc::MADV_DONTNEED) };
            if done == 0 {
                return;
            }
        }
        for line in self.iter() {
            for word in &line.0 {
                word.store(0, std::sync::atomic::Ordering::Relaxed);
            }
        }
    }

    /// Anonymous memory, zeroed by the kernel on first touch, with its lines
    /// starting on a huge-page boundary and, if `huge_pages`, advised for huge pages.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize, huge_pages: bool) -> Result<Lines, MemoryError> {
        let mapped = bytes
            .checked_add(HUGE_PAGE)
            .ok_or_else(|| MemoryError::TooLarge {
                asked: format!("{bytes} bytes"),
            })?;
        // SAFETY: an anonymous private mapping with no address hint; the result
        // is checked before use.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(MemoryError::Refused {
                bytes,
                reason: Some(std::io::Error::last_os_error()),
            });
        }
        let start = (raw as usize).next_multiple_of(HUGE_PAGE);
        let advised = if huge_pages {
            // SAFETY: `start..start + bytes` lies inside the mapping just made, since
            // the mapping is a huge page longer than `bytes`.
            unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) }
        } else {
            0
        };
        if advised != 0 {
            log::debug!("huge pages are not available for the table");
        }
        let ptr = NonNull::new(start as *mut Line).ok_or_else(|| MemoryError::Refused {
            bytes,
            reason: Some(std::io::Error::other("it mapped the memory at address 0")),
        })?;
        Ok(Lines {
            ptr,
            len,
            source: Source::Mapped(raw, mapped),
        })
    }
}

impl Deref for Lines {
    type Target = [Line];
    fn deref(&self) -> &[Line] {
        // SAFETY: `ptr` points to `len` initialised (zeroed) lines owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        match self.source {
            // SAFETY: allocated in `zeroed` with exactly this layout, freed once.
            Source::Heap(layout) => unsafe { dealloc(self.ptr.as_ptr().cast(), layout) },
            #[cfg(target_os = "linux")]
            Source::Mapped(start, length) => {
                // SAFETY: the whole mapping made in `mapped`, unmapped once.
                unsafe { libc::munmap(start, length) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn lines_start_empty_and_hold_writes() {
        for len in [1, 3, 40_000, (4 << 20) / 64] {
            let lines = Lines::try_zeroed(len).expect("a small table");
            assert_eq!(lines.len(), len);
            assert!(
                lines
                    .iter()
                    .all(|l| l.0.iter().all(|w| w.load(Relaxed) == 0))
            );
            lines[len - 1].0[7].store(42, Relaxed);
            assert_eq!(lines[len - 1].0[7].load(Relaxed), 42);
            assert_eq!(lines.as_ptr() as usize % 64, 0);
        }
    }

    #[test]
    fn faulting_in_keeps_every_line_as_it_was() {
        for len in [3, (4 << 20) / 64] {
            let lines = Lines::try_zeroed(len).expect("a small table");
            lines[len / 2].0[0].store(7, Relaxed);
            lines.fault_in();
            assert_eq!(lines[len / 2].0[0].load(Relaxed), 7);
            let written = lines
                .iter()
                .flat_map(|l| l.0.iter())
                .filter(|w| w.load(Relaxed) != 0)
                .count();
            assert_eq!(written, 1, "{len} lines");
        }
    }

    #[test]
    fn reset_empties_heap_and_mapped_lines() {
        for len in [3, (4 << 20) / 64] {
            let mut lines = Lines::try_zeroed(len).expect("a small table");
            lines[len / 2].0[3].store(9, Relaxed);
            lines.reset();
            assert_eq!(lines[len / 2].0[3].load(Relaxed), 0);
        }
    }

    #[test]
    fn memory_that_cannot_be_had_is_an_error() {
        assert!(Lines::try_zeroed(usize::MAX / 8).is_err());
    }
}
