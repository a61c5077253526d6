//! The caching allocator's rules as counter sequences (pytorch-facts.md).

use cudatutor::engine::allocator::{CachingAllocator, allocation_size, format_size, round_size};

const MIB: u64 = 1 << 20;

#[test]
fn rounding_and_segment_sizes() {
    assert_eq!(round_size(1), 512);
    assert_eq!(round_size(512), 512);
    assert_eq!(round_size(513), 1024);
    assert_eq!(allocation_size(MIB), 2 * MIB);
    assert_eq!(allocation_size(MIB + 512), 20 * MIB);
    assert_eq!(allocation_size(10 * MIB - 512), 20 * MIB);
    assert_eq!(allocation_size(10 * MIB), 10 * MIB);
    assert_eq!(allocation_size(11 * MIB), 12 * MIB);
}

#[test]
fn small_pool_packs_into_one_segment() {
    let mut a = CachingAllocator::sim(0, 80 << 30);
    let blocks: Vec<_> = (0..4096).map(|_| a.malloc(512).unwrap()).collect();
    assert_eq!(a.reserved(), 2 * MIB);
    assert_eq!(a.allocated(), 2 * MIB);
    let extra = a.malloc(1).unwrap();
    assert_eq!(a.reserved(), 4 * MIB);
    for b in blocks {
        a.free(b);
    }
    a.free(extra);
    assert_eq!(a.allocated(), 0);
    assert_eq!(a.stats().inactive_split.all.current, 0);
    a.empty_cache();
    assert_eq!(a.reserved(), 0);
}

#[test]
fn best_fit_reuses_freed_blocks() {
    let mut a = CachingAllocator::sim(0, 80 << 30);
    let x = a.malloc(3 * MIB).unwrap();
    let y = a.malloc(12 * MIB).unwrap();
    assert_eq!(a.reserved(), 20 * MIB);
    a.free(x);
    // the freed 3 MiB block is the best fit for 2 MiB: no new segment
    let z = a.malloc(2 * MIB).unwrap();
    assert_eq!(a.reserved(), 20 * MIB);
    // a partly used segment survives empty_cache
    a.empty_cache();
    assert_eq!(a.reserved(), 20 * MIB);
    a.free(y);
    a.free(z);
    a.empty_cache();
    assert_eq!(a.reserved(), 0);
}

#[test]
fn summary_layout() {
    let mut a = CachingAllocator::sim(0, 80 << 30);
    let _x = a.malloc(40).unwrap();
    let s = a.summary(false);
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines[0], format!("|{}|", "=".repeat(75)));
    assert_eq!(
        lines[1],
        "|                  PyTorch CUDA memory summary, device ID 0                 |"
    );
    assert_eq!(
        lines[3],
        "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |"
    );
    assert_eq!(
        lines[5],
        "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |"
    );
    assert_eq!(
        lines[7],
        "| Allocated memory      |    512 B   |    512 B   |    512 B   |      0 B   |"
    );
    assert_eq!(
        lines[9],
        "|       from small pool |    512 B   |    512 B   |    512 B   |      0 B   |"
    );
    assert!(lines.iter().all(|l| l.chars().count() == 77), "{s}");
    assert!(
        s.contains("| GPU reserved memory   |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |")
    );
}

#[test]
fn format_sizes() {
    assert_eq!(format_size(0), "0 bytes");
    assert_eq!(format_size(1536), "1.50 KiB");
    assert_eq!(format_size(20 * MIB), "20.00 MiB");
    assert_eq!(format_size(3 << 30), "3.00 GiB");
}
