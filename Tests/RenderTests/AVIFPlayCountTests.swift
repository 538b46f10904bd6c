import Codecs
import Testing

/// The edit lists that carry an animated AVIF's play count, on a small hand-built ISOBMFF file
/// shaped like libavif 0.11's (meta with iloc, moov with one track, mdat after it). The real
/// encoder's files are read back by libavif 1.x in scripts/avif-play-count.sh.
@Suite struct AVIFPlayCountTests {
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be(8 + body.count, 4) + Array(type.utf8) + body }
    static func be(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * (bytes - 1 - $0))) } }
    static func read(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) } }

    /// ftyp, meta (iloc: one item, one extent at the payload), moov (mvhd v1: timescale 10,
    /// duration 5; a track whose stco points at the payload), mdat holding the payload.
    static func file() -> (bytes: [UInt8], payload: [UInt8]) {
        let payload: [UInt8] = Array("FRAMES".utf8)
        func build(payloadAt: Int) -> [UInt8] {
            let ftyp = box("ftyp", Array("avis".utf8) + be(0, 4))
            let iloc = box("iloc", [0, 0, 0, 0, 0x44, 0x00] + be(1, 2) + be(1, 2) + be(0, 2) + be(1, 2) + be(payloadAt, 4) + be(payload.count, 4))
            let meta = box("meta", [0, 0, 0, 0] + iloc)
            let mvhd = box("mvhd", [1, 0, 0, 0] + be(0, 16) + be(10, 4) + be(5, 8) + [UInt8](repeating: 0, count: 80))
            let tkhd = box("tkhd", [1, 0, 0, 1] + be(0, 16) + be(1, 4) + be(0, 4) + be(5, 8) + [UInt8](repeating: 0, count: 60))
            let stco = box("stco", [0, 0, 0, 0] + be(1, 4) + be(payloadAt, 4))
            let trak = box("trak", tkhd + box("mdia", box("minf", box("stbl", stco))))
            return ftyp + meta + box("moov", mvhd + trak)
        }
        let head = build(payloadAt: 0)
        return (build(payloadAt: head.count + 8) + box("mdat", payload), payload)
    }

    @Test func editListSaysThePlaysAndOffsetsFollowThePayload() throws {
        let (original, payload) = Self.file()
        let out = try AVIFPlayCount.write(plays: 3, into: original)
        #expect(out.count == original.count + 44)
        // The payload is found where stco and iloc now say.
        let stco = try #require(find("stco", in: out)), iloc = try #require(find("iloc", in: out))
        let chunk = Self.read(out, stco + 16, 4), extent = Self.read(out, iloc + 8 + 4 + 2 + 2 + 2 + 2 + 2, 4)
        #expect(chunk == extent)
        #expect(Array(out[chunk..<(chunk + payload.count)]) == payload)
        // One edit of one play (5), repeating; the track and movie last three plays.
        let elst = try #require(find("elst", in: out))
        #expect(out[elst + 8] == 1 && out[elst + 11] == 1, "version 1, flag repeat")
        #expect(Self.read(out, elst + 12, 4) == 1 && Self.read(out, elst + 16, 8) == 5 && Self.read(out, elst + 24, 8) == 0)
        let tkhd = try #require(find("tkhd", in: out)), mvhd = try #require(find("mvhd", in: out))
        #expect(Self.read(out, tkhd + 8 + 4 + 24, 8) == 15 && Self.read(out, mvhd + 8 + 4 + 20, 8) == 15)
        // The boxes that grew say so: moov and trak still end where their contents do.
        let moov = try #require(find("moov", in: out)), mdat = try #require(find("mdat", in: out))
        #expect(moov + Self.read(out, moov, 4) == mdat)
        let edts = try #require(find("edts", in: out))
        #expect(edts == tkhd + Self.read(out, tkhd, 4), "the edit list follows the track header")
    }

    @Test func forEverAndOnce() throws {
        let (original, _) = Self.file()
        let forever = try AVIFPlayCount.write(plays: 0, into: original)
        let tkhd = try #require(find("tkhd", in: forever)), elst = try #require(find("elst", in: forever))
        #expect(forever[(tkhd + 36)..<(tkhd + 44)].allSatisfy { $0 == 0xFF } && forever[elst + 11] == 1)
        let once = try AVIFPlayCount.write(plays: 1, into: original)
        let onceList = try #require(find("elst", in: once)), onceHeader = try #require(find("tkhd", in: once))
        #expect(once[onceList + 11] == 0 && Self.read(once, onceHeader + 36, 8) == 5)
        // Written twice, the second call finds the edit list and leaves the file alone.
        #expect(try AVIFPlayCount.write(plays: 2, into: once) == once)
    }

    @Test func stillImagesPassAndBrokenFilesThrow() throws {
        let still = Self.box("ftyp", Array("avif".utf8) + Self.be(0, 4)) + Self.box("mdat", [1, 2, 3])
        #expect(try AVIFPlayCount.write(plays: 2, into: still) == still)
        var (broken, _) = Self.file()
        let moov = try #require(find("moov", in: broken))
        broken.replaceSubrange(moov..<(moov + 4), with: Self.be(1 << 30, 4))
        #expect(throws: AVIFPlayCount.Malformed.self) { try AVIFPlayCount.write(plays: 2, into: broken) }
        let (original, _) = Self.file()
        #expect(throws: AVIFPlayCount.Malformed.self) { try AVIFPlayCount.write(plays: -1, into: original) }
    }

    /// Where the first box of `type` starts (its size field), searching the raw bytes.
    func find(_ type: String, in bytes: [UInt8]) -> Int? {
        let tag = Array(type.utf8)
        return (4..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(tag) }.map { $0 - 4 }
    }
}
