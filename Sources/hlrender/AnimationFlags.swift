import Card
import Flags
import Glibc
import Host
import Motion
import Render
import Support

/// `--fps`, `--duration` and `--loop` of an animated card, parsed by the timing's option
/// table (the card keys of the same names); given flags win over the spec's keys.
struct AnimationFlags: FlagGroup {
    @FlagList(AnimationTiming.options.flagSpecs(AnimationTiming.options.map(\.name))) var given: GivenFlags

    func adjust(_ timing: inout AnimationTiming) throws { try AnimationTiming.options.apply(given, to: &timing) }

    /// The animated container `output`'s extension asks for when the card moves (or always
    /// for .mp4 and .apng); nil: a still image.
    static func format(output: String?, animated: Bool) -> AnimationFormat? {
        guard let output, output != "-" else { return nil }
        let ext = output.split(separator: "/").last?.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard let format = AnimationFormat(extension: ext) else { return nil }
        return animated || ext == "mp4" || ext == "apng" ? format : nil
    }

    /// `spec` drawn frame by frame into `format` with these flags' timing: for MP4, ffmpeg
    /// from `$PATH` and a private folder for its file, removed after. A card error is the
    /// caller's to word.
    func animate(_ spec: CardSpec, engine: Engine, as format: AnimationFormat, encoding: EncodeOptions,
                 layoutReport: Bool) throws -> CardOutput {
        var tools = AnimationTools()
        if format == .mp4 {
            do {
                tools = AnimationTools(ffmpeg: Host.executable(named: "ffmpeg"), temporaryFolder: try Host.makeTemporaryFolder())
            } catch {
                throw CLIFailure(message: "writing MP4: \(error)")
            }
        }
        defer { if let folder = tools.temporaryFolder { rmdir(folder) } }
        var job = Job(format: .png, encoding: encoding)
        job.layoutReport = layoutReport
        return try engine.animate(spec, as: format, job: job, tools: tools, adjust: adjust).output
    }
}
