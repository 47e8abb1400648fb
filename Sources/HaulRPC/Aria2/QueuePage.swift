/// Which items `tellWaiting` and `tellStopped` return from a list of `count`, as aria2 pages:
/// `num` from `offset` on; a negative offset counts from the end (-1 is the last item) and the
/// page then runs backwards from there.
public enum QueuePage {
    public static func indices(count: Int, offset: Int64, num: Int64) -> [Int] {
        guard num > 0 else { return [] }
        var start = offset
        var length = num
        if offset < 0 {
            let fromEnd = offset + Int64(count)
            guard fromEnd >= 0 else { return [] }
            start = fromEnd - (num - 1)
            if start < 0 {
                start = 0
                length = fromEnd + 1
            }
        } else if Int64(count) <= offset {
            return []
        }
        let end = min(Int64(count), start + length)
        let forwards = Array(Int(start)..<Int(end))
        return offset < 0 ? forwards.reversed() : forwards
    }
}
