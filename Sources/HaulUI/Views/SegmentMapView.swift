import HaulCore

/// A segmented download as a bar of its file: each cell is done, being fetched, or missing.
enum SegmentMapView {
    /// The bar of a file of `total` bytes, `width` cells wide. A cell is done when every byte in
    /// it is on disk, being fetched when a connection writes into it, missing otherwise.
    static func bar(_ segments: [LiveSegment], total: Int64, width: Int, glyphs: Glyphs) -> String {
        guard width > 0, total > 0 else { return "" }
        let (done, fetching, missing) =
            glyphs == .unicode ? ("█", "▒", "░") : ("#", "=", "-")
        var cells = ""
        for cell in 0..<width {
            let from = total * Int64(cell) / Int64(width)
            let to = max(from + 1, total * Int64(cell + 1) / Int64(width))
            var whole = true
            var active = false
            for live in segments where live.segment.start < to && live.segment.end > from {
                let next = live.segment.next
                if next < min(to, live.segment.end) { whole = false }
                if live.bytesPerSecond != nil, next < to, live.segment.end > from { active = true }
            }
            cells += whole ? done : active ? fetching : missing
        }
        return cells
    }

    /// The stored map (nothing being fetched) in the same form.
    static func live(_ map: [Segment]) -> [LiveSegment] { map.map { LiveSegment($0, bytesPerSecond: nil) } }
}
