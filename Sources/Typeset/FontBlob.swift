import CHarfBuzz
import Support

/// A font file's bytes, mapped once and shared by everything that reads the file: the HarfBuzz
/// faces of each index and the FreeType faces Cairo draws with (a WOFF or WOFF2 file's decoded
/// OpenType bytes, see `WebFont`). The bytes are read-only and
/// live as long as the blob, so any thread may read them.
package final class FontBlob: @unchecked Sendable {
    package let file: String
    let blob: OpaquePointer
    /// The file's bytes; valid while this blob is alive (hold the blob, not just the pointer).
    package let bytes: UnsafeRawBufferPointer

    /// The file mapped; a web font decoded where `isolation` says (FreeType's WOFF/WOFF2
    /// decoders in a limited worker for a service).
    init(file: String, isolation: Isolation = .inProcess) throws {
        // HarfBuzz opens the file by name (and would block on a FIFO swapped in since it was
        // found): the one opening rule first.
        do { try Posix.checkRegular(file, as: "font file") } catch { throw TypesetError.unreadableFontFile(file) }
        guard let blob = hb_blob_create_from_file_or_fail(file) else {
            throw TypesetError.unreadableFontFile(file)
        }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else {
            hb_blob_destroy(blob)
            throw TypesetError.notAFont(file)
        }
        let mapped = UnsafeRawBufferPointer(start: data, count: Int(length))
        self.file = file
        guard WebFont.isWebFont(mapped) else {
            self.blob = blob
            bytes = mapped
            return
        }
        // A web font: its decoded OpenType bytes replace the mapping, owned by the new blob.
        defer { hb_blob_destroy(blob) }
        (self.blob, bytes) = try FontBlob.owning(try WebFontTasks.sfnt(mapped, file: file, isolation: isolation), file: file)
    }

    /// A font made in memory (a program's own), called `name` in messages.
    package init(bytes: [UInt8], name: String) throws {
        file = name
        (blob, self.bytes) = try FontBlob.owning(bytes, file: name)
    }

    /// A blob owning a copy of `sfnt`, and its bytes.
    private static func owning(_ sfnt: [UInt8], file: String) throws -> (OpaquePointer, UnsafeRawBufferPointer) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(sfnt.count, 1), alignment: 16)
        sfnt.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: sfnt.count) }
        guard let decoded = hb_blob_create(copy.assumingMemoryBound(to: CChar.self), UInt32(sfnt.count), HB_MEMORY_MODE_READONLY,
                                           copy, { $0?.deallocate() }) else {
            copy.deallocate()
            throw TypesetError.notAFont(file)
        }
        return (decoded, UnsafeRawBufferPointer(start: copy, count: sfnt.count))
    }

    deinit { hb_blob_destroy(blob) }
}
