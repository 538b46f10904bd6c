extension String {
    /// Whether some UTF-8 byte of the string satisfies `test`: over its contiguous bytes (the
    /// UTF-8 view's own iterator took 6 ns a byte: a 2,000-page Markdown text's escape checks
    /// were a third of its single-threaded start).
    package func containsUTF8Byte(where test: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: test) } ?? utf8.contains(where: test)
    }

    /// The string's scalars as an array, decoded in one pass (`Array(unicodeScalars)` walks
    /// the view twice, once to count it).
    var scalarArray: [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(utf8.count)
        for scalar in unicodeScalars { scalars.append(scalar) }
        return scalars
    }
}
