import GestureCore
import GestureInput

/// One file of a merged replay: the frames decoded from its last chunk and not
/// yet taken.
private final class ReplayLane {
    let source: Source
    let file: InputFile
    var frames: [TouchFrame] = []
    var next = 0
    var atEnd = false

    init(source: Source, file: InputFile) {
        self.source = source
        self.file = file
    }

    var head: TouchFrame? { next < frames.count ? frames[next] : nil }
}

extension Session {
    /// Several files, each a device: their frames are taken earliest first, as
    /// they would have come live, so that actions leave in time order across
    /// devices. Each file is read a chunk at a time, as a single one is.
    func replayMerged(_ sources: [Source]) -> ExitCode {
        let lanes = sources.compactMap { source in source.file.map { ReplayLane(source: source, file: $0) } }

        /// Decodes chunks until the lane has a frame waiting or its file ended.
        func refill(_ lane: ReplayLane) -> ExitCode? {
            while lane.head == nil, !lane.atEnd, engine.fatal == nil {
                lane.frames.removeAll(keepingCapacity: true)
                lane.next = 0
                switch feedChunk(of: lane.source, from: lane.file, emit: { lane.frames.append($0) }) {
                case .failure(let status):
                    return status
                case .success(0):
                    lane.source.decoder.finish { lane.frames.append($0) }
                    lane.atEnd = true
                    if let status = engine.reportDiagnostics(lane.source) { return status }
                case .success:
                    break
                }
            }
            return nil
        }

        for lane in lanes {
            if let status = refill(lane) { return status }
        }
        while engine.fatal == nil {
            // The earliest frame waiting; on a tie, the file named first.
            var earliest: ReplayLane?
            for lane in lanes {
                guard let frame = lane.head else { continue }
                if let best = earliest?.head, best.time <= frame.time { continue }
                earliest = lane
            }
            guard let lane = earliest, let frame = lane.head else { break }
            lane.next += 1
            self.frame(frame)
            if lane.head == nil, let status = refill(lane) { return status }
        }
        guard engine.fatal == nil else { return .ok }
        // Every file ended: what was due by the last input fires across devices
        // in time order, then each device's end, the earliest next deadline first.
        if let last = engine.latestInputTime { engine.advanceAll(to: last) }
        let ending = lanes.map(\.source.index).sorted {
            (engine.deadline(of: $0) ?? .infinity, $0) < (engine.deadline(of: $1) ?? .infinity, $1)
        }
        for device in ending where engine.fatal == nil { engine.finish(device: device) }
        for lane in lanes { engine.announce(lane.source, atEnd: true) }
        engine.finishTimers()
        return .ok
    }
}
