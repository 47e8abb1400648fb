import HaulCore

/// A torrent's files box (`f` in its details): a cursor over the files and Space to fetch one or
/// skip it, applied at once. It keeps the choice it last sent, so a mark changes as the key is
/// pressed, before the engine's next list of files arrives.
public struct FilesPicker: Equatable, Sendable {
    public let id: DownloadID
    /// The file under the cursor, from 0.
    public private(set) var cursor = 0
    /// The choice as last sent (nil: every file).
    public private(set) var selection: FileSelection?
    static let title = "Files"

    public init(id: DownloadID, selection: FileSelection?) {
        self.id = id
        self.selection = selection
    }

    /// What a key leads to.
    enum Outcome: Equatable {
        case edited
        case ignored
        /// Back to the details box.
        case closed
        /// The key would leave no file to fetch: the sentence says so; nothing changes.
        case refused(String)
        /// Fetch these files from now on (nil: all).
        case select(FileSelection?)
    }

    func isSelected(_ index: Int) -> Bool { selection?.contains(index + 1) ?? true }

    /// `page` is how many files the box shows at once.
    mutating func handle(_ key: Key, fileCount: Int, page: Int) -> Outcome {
        guard fileCount > 0 else { return key == .escape || key == .character("q") ? .closed : .ignored }
        let last = fileCount - 1
        switch key {
        case .escape, .enter, .character("q"), .character("f"): return .closed
        case .up, .character("k"): cursor = max(0, cursor - 1)
        case .down, .character("j"): cursor = min(last, cursor + 1)
        case .pageUp: cursor = max(0, cursor - page)
        case .pageDown: cursor = min(last, cursor + page)
        case .home, .character("g"): cursor = 0
        case .end, .character("G"): cursor = last
        case .character(" "):
            let all = FileSelection(ranges: [1...fileCount])
            let next = (selection ?? all).toggled(cursor + 1)
            guard !next.ranges.isEmpty else {
                return .refused("a torrent fetches at least one file: pause it to fetch none")
            }
            selection = next == all ? nil : next
            return .select(selection)
        case .character("a"):
            selection = nil
            return .select(nil)
        default: return .ignored
        }
        return .edited
    }

    /// The first file shown when `page` files fit: the cursor stays in view.
    func firstShown(page: Int, fileCount: Int) -> Int {
        guard fileCount > page else { return 0 }
        return min(max(0, cursor - page / 2), fileCount - page)
    }

    /// The box's lines: a window of the files around the cursor, then the keys. Paths come from
    /// the swarm and are made safe here.
    func lines(files: [TorrentDetails.File], height: Int, width: Int, glyphs: Glyphs) -> [(String, Style)] {
        let page = max(1, height - 3)
        let first = firstShown(page: page, fileCount: files.count)
        var result: [(String, Style)] = []
        if files.isEmpty {
            result.append(("The files show once the torrent's metadata has arrived.", .dim))
        }
        for i in first..<min(files.count, first + page) {
            let file = files[i]
            let size = TorrentDetailsView.fileSize(file)
            let name = TorrentDetailsView.fileName(file, index: i, selected: isSelected(i), glyphs: glyphs)
            let room = max(1, width - DisplayWidth.of(size) - 2)
            let text = DisplayWidth.fit(name, width: room, ellipsis: glyphs.ellipsis) + "  " + size
            let style: Style = isSelected(i) ? .plain : .dim
            result.append((text, i == cursor ? style.with(reverse: true) : style))
        }
        result.append(("", .plain))
        let chosen = files.indices.count(where: isSelected)
        result.append(
            ("\(chosen) of \(files.count) files chosen · Space fetch/skip · a all · Esc back", .dim))
        return result
    }
}
