import Glibc

/// For processes that render many images (a batch, the service). Canvases and encoder buffers
/// are megabytes each: glibc would map and unmap them per image (or trim the heap under them),
/// and the page faults of zeroing them again cost as much as drawing (a 500-card batch spent
/// 3.5 s of 4.8 in the kernel). Keeping them in the heap lets freed memory be reused; RSS then
/// stays flat at the largest working set instead of breathing.
///
/// Memory kept this way stays in the arena of the thread that freed it, and glibc gives a
/// process up to eight arenas a core: each keeps the high-water mark of whatever ran on its
/// threads. `workers` (renders at once) arenas are enough; the service's soak peaked at 620-700
/// MB resident with 150-250 MB reserved under the default, 449 MB with two arenas (and 88 MB
/// instead of ~230 once traffic stopped).
package enum ReuseMemory {
    package static func forManyImages(workers: Int) {
        mallopt(-3 /* M_MMAP_THRESHOLD */, 256 << 20)
        mallopt(-1 /* M_TRIM_THRESHOLD */, 512 << 20)
        mallopt(-8 /* M_ARENA_MAX */, Int32(clamping: max(2, workers)))
    }

    /// For one long document (a paged PDF), the opposite: its memory should follow a page,
    /// and its big buffers are short-lived (a page's content stream, inflated and deflated
    /// again on the file's writer thread). glibc's default raises the size it maps memory
    /// from to the largest buffer freed, after which such buffers fragment each thread's
    /// arena: the 2,000-page article peaked at 57-61 MB resident, 46-53 MB with buffers of
    /// 512 KB and more mapped and returned, at the same speed.
    package static func forOneLongDocument() {
        mallopt(-3 /* M_MMAP_THRESHOLD */, 512 << 10)
    }

    /// glibc's mallopt, not in Swift's Glibc module: looked up by name.
    private static func mallopt(_ option: Int32, _ value: Int32) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let call = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = call(option, value)
    }
}
