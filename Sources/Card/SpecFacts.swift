import Support
import Typeset

extension CardSpec {
    /// Every block, stacks opened, in order.
    var allBlocks: [BlockSpec] {
        func flatten(_ blocks: [BlockSpec]) -> [BlockSpec] {
            blocks.flatMap { block -> [BlockSpec] in
                if case let .stack(_, _, inner) = block.kind { return [block] + flatten(inner) }
                return [block]
            }
        }
        return flatten(blocks)
    }

    /// Whether any block hides lines (restricted content): such a card's bytes must not be
    /// named by anything a client can compare against (an ETag would be an oracle).
    package var isRestricted: Bool {
        allBlocks.contains { block in
            if case let .text(settings, _) = block.kind { return settings.visibleLines != nil }
            return false
        }
    }

    /// The JSON path of the first picture block without alternative text (PDF/UA-1 needs one
    /// for every picture), nil when every picture has one.
    package var imageWithoutAlt: String? {
        for block in allBlocks {
            if case let .image(_, _, _, _, alt) = block.kind, (alt ?? "").trimmed.isEmpty { return block.path }
        }
        return nil
    }

    /// The files the card reads, resolved against its folder: pictures, text and steps files,
    /// and a font given as a file (a font name that is not a file there, as `isFile` tells it,
    /// is left out). What a cache of its renders must watch.
    package func files(isFile: (String) -> Bool = World.diskIsRegularFile) -> [String] {
        let resolve = { (path: String) in path.hasPrefix("/") ? path : folder + "/" + path }
        var paths: [String] = []
        if case let .image(path, _, _, _) = background { paths.append(resolve(path)) }
        for block in allBlocks {
            switch block.kind {
            case let .text(settings, _), let .steps(settings, _):
                paths += [settings.textFile, settings.markupFile, settings.markdownFile, settings.stepsFile].compactMap { $0.map(resolve) }
                if let file = (try? settings.fontSpec(resolve: resolve, isFile: isFile))?.file {
                    paths.append(resolve(file))
                }
            case let .image(src, _, _, _, _):
                paths.append(resolve(src))
            case .stack:
                break
            }
        }
        return paths
    }
}
