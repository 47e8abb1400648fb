import CLinux

/// glibc gives each thread that allocates its own malloc arena, and memory freed in one is not
/// reused by another: with many downloads held by the engine, the UI and a save at once, the
/// arenas raise the TUI's peak memory by a good part (docs/PERFORMANCE.md, "Malloc arenas").
/// Transfers allocate their large buffers with mmap, which arenas do not touch.
enum MallocArenas {
    static func useOne() {
        _ = haul_use_one_malloc_arena()
    }
}
