// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Foundation
import Glibc
import Support
import TestSupport
import Testing

/// Issue 48: librsvg and poppler decode a request's files in a worker process of the service's
/// own binary, limited in CPU time and address space. A worker that crashes or runs past the
/// deadline ends that request alone (422 or 503) and is gone; the service goes on. Each of these
/// failed on f727c2f: a 924-byte card held a render slot for 20 s, and a decoder's crash ended
/// the service.
@Suite(.serialized) struct ServeWorkerTests {
    /// A path of 10,000 crossing segments: librsvg takes ~20 s to fill and stroke it.
    static func slowSVG() -> String {
        var generator = SplitMix(seed: 1)
        let points = (0..<10_000).map { _ in "L\(generator.next() % 1000) \(generator.next() % 1000)" }.joined(separator: " ")
        return #"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><path d="M0 0 \#(points)Z" fill="red" fill-rule="evenodd" stroke="blue" stroke-width="3"/></svg>"#
    }

    static let slowCard = #"{"size": "1000x1000", "blocks": [{"type": "image", "src": "slow.svg"}]}"#
    static let smallCard = #"{"size": "400x200", "blocks": [{"type": "text", "text": "hi", "size": 20}]}"#

    static func assets() throws -> URL {
        let folder = try CLI.scratchFolder()
        try Data(slowSVG().utf8).write(to: folder.appendingPathComponent("slow.svg"))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="10" height="10"/></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("small.svg"))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="400"><text x="0" y="300" font-size="300">Big text</text></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("bigtext.svg"))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><text x="4" y="40" font-size="30">small</text></svg>"#.utf8)
            .write(to: folder.appendingPathComponent("text.svg"))
        return folder
    }

    /// The service's child processes (its decoder workers), from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }

    @Test func aDecoderPastTheDeadlineIsKilledAndTheSlotFreed() async throws {
        let service = try await RunningService(["--assets", try Self.assets().path, "--timeout-ms", "1500", "--concurrency", "1"])
        let started = Date()
        #expect(try service.post(Self.slowCard) == "503")
        #expect(Date().timeIntervalSince(started) < 6, "the answer took \(Date().timeIntervalSince(started)) s")
        // The worker is gone, and the one slot serves the next request at once.
        for _ in 0..<40 where !Self.children(of: service.process.processIdentifier).isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        #expect(Self.children(of: service.process.processIdentifier).isEmpty)
        #expect(try service.post(Self.smallCard) == "200")
        #expect(try service.post(#"{"size": "400x200", "blocks": [{"type": "image", "src": "small.svg"}]}"#) == "200")
        #expect(try runTool("/usr/bin/curl", ["-sf", "http://127.0.0.1:\(service.port)/healthz"]).status == 0)
    }

    @Test func aWorkerKilledMidDecodeIsA422AndTheServiceGoesOn() async throws {
        let service = try await RunningService(["--assets", try Self.assets().path, "--timeout-ms", "30000", "--concurrency", "2"])
        let pid = service.process.processIdentifier
        let port = service.port
        let pending = Task.detached {
            try runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json",
                                          "--data-binary", Self.slowCard, "http://127.0.0.1:\(port)/v1/card"]).output
        }
        // The worker that draws, known by its task in its argv (the one asked for the size ends
        // at once). By name, not by timing: a child seen twice some time apart was missed on a
        // loaded machine (CI, while another test compressed the release tarball). Waited for
        // up to three minutes: with the whole suite starting at once on two cores the request
        // once took over a minute to reach its worker.
        var worker: Int32?
        for _ in 0..<1800 {
            worker = Self.children(of: pid).first { child in
                let argv = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline"))) ?? Data()
                return argv.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "svg-raster" }
            }
            if worker != nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard let found = worker else {
            // What the request answered instead: a flake seen in CI twice, not yet explained.
            let answer = (try? await pending.value) ?? "no answer"
            Issue.record("no decoder worker was started in three minutes; the request answered \(answer)")
            return
        }
        #expect(kill(found, SIGSEGV) == 0)
        #expect(try await pending.value == "422")
        #expect(try service.post(Self.smallCard) == "200")
        #expect(kill(pid, 0) == 0, "the service is gone")
    }

    /// Finding 10: after one SVG text drawn at 6000 px, every later SVG with text got 422
    /// (librsvg's FreeType state outlived the picture). Each picture is a worker of its own now.
    @Test func svgTextStateDoesNotOutliveItsPicture() async throws {
        let service = try await RunningService(["--assets", try Self.assets().path])
        // 6000 px wide on a 1200 px card: drawn or refused, either way answered.
        let big = try service.post(#"{"size": "1200x200", "blocks": [{"type": "image", "src": "bigtext.svg", "width": 6000}]}"#)
        #expect(["200", "413", "422", "503"].contains(big), "\(big)")
        for _ in 0..<3 {
            #expect(try service.post(#"{"size": "400x200", "blocks": [{"type": "image", "src": "text.svg"}]}"#) == "200")
        }
    }

    /// Finding 3: a small card naming one tiny SVG thirty times at 6000 px held 30 x 144 MB,
    /// rasterised before any memory was reserved. Now the file is opened once, rasterised
    /// once for the part the 400 px canvas shows (the blocks below it are not drawn at all),
    /// after that raster is reserved; a canvas whose one picture is over the budget is refused.
    @Test func manyLargePicturesAreBoundedByTheBudget() async throws {
        let service = try await RunningService(["--assets", try Self.assets().path, "--memory-mb", "256"])
        let blocks = (0..<30).map { _ in #"{"type": "image", "src": "small.svg", "width": 6000}"# }.joined(separator: ", ")
        let status = try service.post(#"{"size": "400x400", "blocks": [{"type": "stack", "blocks": [\#(blocks)]}]}"#)
        #expect(status == "200", "\(status)")
        #expect(service.residentKiB < 200 * 1024, "\(service.residentKiB) KiB")
        let huge = try service.post(#"{"size": "6000x6000", "padding": 0, "blocks": [{"type": "image", "src": "small.svg", "width": 6000}]}"#)
        #expect(huge == "413" || huge == "503", "\(huge)")
        // The budget and the service's own ~40 MB: the worker's answer moved without a second copy.
        #expect(service.residentKiB < (256 + 64) * 1024, "\(service.residentKiB) KiB")
        #expect(try service.post(Self.smallCard) == "200")
    }

    /// Issue 54: every cache the service keeps is inside --cache-mb (decoded pictures and
    /// drawn backgrounds were 256 MB and four whole canvases beside it). Twenty-four distinct
    /// 2000 px photos, each a blurred background and a picture: the service stays under its
    /// idle size plus --memory-mb plus --cache-mb (kept pictures alone were 256 MB before).
    @Test func manyDistinctPicturesAndBackgroundsStayInsideTheBudgets() async throws {
        let assets = try Self.assets()
        let template = assets.appendingPathComponent("photo.json"), rows = assets.appendingPathComponent("photos.csv")
        try Data(#"{"size": "2000x2000", "padding": 0, "background": "{{c}}", "blocks": []}"#.utf8).write(to: template)
        try Data(("id,c\n" + (0..<24).map { "p\($0),#\(String(format: "%02x", $0 * 10))6040" }.joined(separator: "\n") + "\n").utf8).write(to: rows)
        let made = try CLI.run(["batch", "--template", template.path, "--data", rows.path, "--output", "{{id}}.png", "--out-dir", assets.path, "--quiet"])
        #expect(made.status == 0, "\(made.stderr)")
        let service = try await RunningService(["--assets", assets.path, "--memory-mb", "128", "--cache-mb", "32", "--concurrency", "2"])
        #expect(try service.post(Self.smallCard) == "200")
        let idle = service.residentKiB
        for i in 0..<24 {
            let spec = #"{"size": "1200x1200", "background": {"image": "p\#(i).png", "blur": 6}, "blocks": [{"type": "image", "src": "p\#((i + 1) % 24).png", "width": 200}, {"type": "text", "text": "card \#(i)"}]}"#
            #expect(try service.post(spec) == "200", "\(i)")
        }
        let after = service.residentKiB
        #expect(after < idle + (128 + 32) * 1024, "idle \(idle) KiB, after 24 photo cards \(after) KiB")
    }

    /// FreeType's WOFF and WOFF2 decoders read a file the request names: the service decodes it
    /// in the worker, and the card is the one the CLI draws with the same font decoded in process.
    @Test func aWebFontARequestNamesIsDecodedByTheWorker() async throws {
        let assets = try Self.assets()
        let webfonts = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/webfonts")
        for name in ["NotoSansLatin.woff", "NotoSansLatin.woff2"] {
            try FileManager.default.copyItem(at: webfonts.appendingPathComponent(name), to: assets.appendingPathComponent(name))
        }
        let service = try await RunningService(["--assets", assets.path])
        for name in ["NotoSansLatin.woff", "NotoSansLatin.woff2"] {
            let spec = #"{"size": "600x200", "blocks": [{"type": "text", "text": "Web fonts, decoded apart", "font": "\#(name)", "size": 40}]}"#
            let served = assets.appendingPathComponent("served.png").path
            let status = try runTool("/usr/bin/curl", ["-s", "-o", served, "-w", "%{http_code}", "-H", "Content-Type: application/json",
                                                       "--data-binary", spec, "http://127.0.0.1:\(service.port)/v1/card"]).output
            #expect(status == "200", "\(name): \(status)")
            try Data(spec.utf8).write(to: assets.appendingPathComponent("card.json"))
            let local = try CLI.run(["card", assets.appendingPathComponent("card.json").path, "-o", assets.appendingPathComponent("local.png").path,
                                     "--no-system-fonts"])
            #expect(local.status == 0, "\(local.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: served)) == Data(contentsOf: assets.appendingPathComponent("local.png")), "\(name)")
        }
    }

    /// Finding 1 through the service: the 610-byte PDF whose MediaBox ended the process is a
    /// 422 for its request.
    @Test func aHostilePDFToCompareIsA422() async throws {
        let folder = try CLI.scratchFolder()
        let token = folder.appendingPathComponent("token")
        try Data("secret-token\n".utf8).write(to: token)
        let service = try await RunningService(["--token-file", token.path])
        let ok = folder.appendingPathComponent("ok.pdf"), huge = folder.appendingPathComponent("huge.pdf")
        try Data(HostileFiles.onePagePDF(mediaBox: "0 0 612 792")).write(to: ok)
        try Data(HostileFiles.onePagePDF(mediaBox: "0 0 100000000000000000000000000 200")).write(to: huge)
        let status = try runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer secret-token",
                                                    "-F", "expected=@\(ok.path)", "-F", "actual=@\(huge.path)",
                                                    "http://127.0.0.1:\(service.port)/v1/compare"]).output
        #expect(status == "422")
        let card = try runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer secret-token",
                                                  "-H", "Content-Type: application/json", "--data-binary", Self.smallCard,
                                                  "http://127.0.0.1:\(service.port)/v1/card"]).output
        #expect(card == "200")
    }

    /// Finding 8: a PDF compare reserved 12 x the pixel limit whatever its pages (480 MB at the
    /// default), so under a small budget even two letter pages were refused, while a page near
    /// the limit was drawn outside what was reserved. The pages' boxes are read first and what
    /// the largest page pair takes is reserved: letter pages fit 128 MB; 6000 x 6600 pt pages
    /// (39.6 Mpx each at 72 dpi, 475 MB drawn) do not, and are refused before poppler draws them.
    @Test func aPDFCompareReservesWhatItsLargestPageTakes() async throws {
        let folder = try CLI.scratchFolder()
        let service = try await RunningService(["--open-compare", "--memory-mb", "128", "--concurrency", "1"])
        func compare(_ box: String) throws -> (status: String, body: String) {
            let a = folder.appendingPathComponent("a.pdf"), b = folder.appendingPathComponent("b.pdf")
            try Data(HostileFiles.onePagePDF(mediaBox: box)).write(to: a)
            try Data(HostileFiles.onePagePDF(mediaBox: box)).write(to: b)
            let out = try runTool("/usr/bin/curl", ["-s", "-w", "\n%{http_code}", "-F", "expected=@\(a.path)", "-F", "actual=@\(b.path)",
                                                    "http://127.0.0.1:\(service.port)/v1/compare"]).output
            let lines = out.split(separator: "\n")
            return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
        }
        let letter = try compare("0 0 612 792")
        #expect(letter.status == "200", "\(letter)")
        let poster = try compare("0 0 6000 6600")
        #expect(poster.status == "413", "\(poster)")
        #expect(service.residentKiB < (128 + 64) * 1024, "\(service.residentKiB) KiB")
    }
}

#endif
