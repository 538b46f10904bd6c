import PropertyBased
import Testing
@testable import Steps

let frame = StepsFrame(canvasWidth: 1080, dotSize: 24, gap: 20, margin: 40)

func checkConstraints(_ steps: [PlacedStep], _ d: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    let eps = 0.01
    for (a, b) in zip(steps, steps.dropFirst()) {
        #expect(a.dot.bottom <= b.text.top + eps, "dot \(a.index) / text \(b.index)", sourceLocation: sourceLocation)
        #expect(a.text.bottom <= b.dot.top + eps, "text \(a.index) / dot \(b.index)", sourceLocation: sourceLocation)
        #expect(a.dot.bottom <= b.dot.top + eps, sourceLocation: sourceLocation)
        // Nothing higher than it must be: one of the constraints (or the dots') is tight.
        let slack = [b.text.top - a.dot.bottom, b.dot.top - a.text.bottom, b.dot.top - a.dot.bottom]
        let sameSide = steps.first { $0.index == b.index - 2 }.map { b.text.top - $0.text.bottom }
        #expect((slack + (sameSide.map { [$0] } ?? [])).contains { abs($0) <= eps }, "step \(b.index) is loose",
                sourceLocation: sourceLocation)
    }
    for (a, c) in zip(steps, steps.dropFirst(2)) {
        #expect(a.side == c.side)
        #expect(a.text.bottom <= c.text.top + eps, "same-side texts \(a.index) and \(c.index) overlap",
                sourceLocation: sourceLocation)
    }
    for step in steps {
        #expect(abs(step.text.centerY - step.dot.centerY) < 1e-9, "text centred on its dot")
    }
}

@Suite struct StepsLayoutTests {
    @Test func columnsAreEqualAndBesideTheDots() {
        #expect(frame.textColumnWidth == 540 - 12 - 20 - 40)
        #expect(frame.columnLeft(.left) == 40)
        #expect(frame.columnLeft(.right) + frame.textColumnWidth == 1040)
        let offCentre = StepsFrame(canvasWidth: 1000, columnX: 400, dotSize: 20, gap: 10, margin: 0)
        #expect(offCentre.textColumnWidth == 380)
    }

    @Test func alternatingSides() {
        let steps = StepsLayout.place(heights: [40, 40, 40, 40], frame: frame)
        #expect(steps.map(\.side) == [.left, .right, .left, .right])
        var mirrored = frame
        mirrored.firstSide = .right
        #expect(StepsLayout.place(heights: [40, 40], frame: mirrored).map(\.side) == [.right, .left])
    }

    @Test func handComputedPacking() {
        // Heights 100, 40, 100 with 24 px dots: centres 50, then max(50 + 12 + 20, 50 + 50 + 12,
        // 50 + 24) = 112, then max(112 + 12 + 50, 112 + 20 + 12, 50 + 50 + 50) = 174 (dot 1 to
        // text 2 binds), total height 174 + 50 = 224 against 240 stacked.
        let steps = StepsLayout.place(heights: [100, 40, 100], frame: frame)
        #expect(steps.map(\.dot.centerY) == [50, 112, 174])
        #expect(StepsLayout.extent(steps) == 224)
        checkConstraints(steps, 24)
    }

    @Test func constraintsHoldOnRandomSteps() async {
        await propertyCheck(count: 300, input: Gen.double(in: 4...300).array(of: 1...9), Gen.double(in: 4...60)) { heights, dot in
            var f = frame
            f.dotSize = dot
            let steps = StepsLayout.place(heights: heights, frame: f)
            checkConstraints(steps, dot)
            let stacked = heights.reduce(0) { $0 + max($1, dot) }
            #expect(StepsLayout.extent(steps) <= stacked + 1e-9)
        }
    }
}
