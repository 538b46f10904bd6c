import Glibc

/// For processes that render many images (a batch, the service). Canvases and encoder buffers
/// are megabytes each: glibc would map and unmap them per image (or trim the heap under them),
/// and the page faults of zeroing them again cost as much as drawing (a 500-card batch spent
/// 3.5 s of 4.8 in the kernel). Keeping them in the heap lets freed memory be reused; RSS then
/// stays flat at the largest working set instead of breathing.
package enum ReuseMemory {
    package static func forManyImages() {
        // mallopt is glibc's, not in Swift's Glibc module: looked up by name.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 256 << 20)
        _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 512 << 20)
    }
}
