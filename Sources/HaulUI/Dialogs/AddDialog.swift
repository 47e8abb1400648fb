import HaulCore

/// The add dialog (`a`): URL, folder and name fields. It keeps what was typed, draws itself and
/// turns keys into what happens next; the controller only shows it and carries out its outcome.
public struct AddDialog: Equatable, Sendable {
    public var fields: [LineEditor]
    public var focus = 0
    /// The folder the dialog put in the directory field; while the field still shows it, it
    /// follows the URL and name (the folder rules' choice). Edited by hand, it stays.
    public var chosenDirectory: String
    /// Whether the directory field shows that folder as a suggestion a typed path replaces, as a
    /// selected field in a form does; a cursor key keeps it to be edited instead.
    public var directoryIsSuggested: Bool
    public static let labels = ["URL", "Directory", "Name"]
    static let title = "Add a download"

    /// What the dialog reads from around it.
    struct Context {
        let folderRules: FolderRules
        let home: String
        let defaultDirectory: String
        /// The engine's place when it runs on another machine: folders are that machine's.
        let remotePlace: String?
    }

    /// What a key leads to.
    enum Outcome: Equatable {
        /// The key changed the dialog: draw it again.
        case edited
        /// The key does nothing here.
        case ignored
        case closed
        /// Enter with something that cannot be added: the sentence says why; the dialog stays.
        case refused(String)
        /// Enter: add this request; the dialog closes.
        case add(DownloadRequest)
        /// Enter with a path: add the torrent file there (read where the UI runs) with this
        /// request's folder and name; the dialog closes.
        case addTorrentFile(path: String, DownloadRequest)
    }

    public init(directory: String) {
        fields = [LineEditor(), LineEditor(directory), LineEditor()]
        chosenDirectory = directory
        directoryIsSuggested = !directory.isEmpty
    }

    /// A new dialog: the download directory in its folder field (none for another machine's
    /// engine, whose own folder is used when none is named).
    init(in context: Context) {
        self.init(directory: context.remotePlace == nil ? context.defaultDirectory : "")
    }

    mutating func handle(_ key: Key, in context: Context) -> Outcome {
        switch key {
        case .escape:
            return .closed
        case .tab, .down:
            focus = (focus + 1) % fields.count
        case .backTab, .up:
            focus = (focus + fields.count - 1) % fields.count
        case .enter:
            return submitted(in: context)
        default:
            if focus == 1, directoryIsSuggested {
                return editSuggestedDirectory(key)
            }
            guard fields[focus].handle(key) else { return .ignored }
            if focus != 1 { followRules(in: context) }
        }
        return .edited
    }

    /// A key in the directory field while it shows the suggested folder: a character starts a new
    /// folder in its place, Backspace or Delete erases it, and any other editing key keeps it.
    private mutating func editSuggestedDirectory(_ key: Key) -> Outcome {
        switch key {
        case .character, .backspace, .delete:
            fields[1] = LineEditor()
            if case .character = key { _ = fields[1].handle(key) }
        default:
            guard fields[1].handle(key) else { return .ignored }
        }
        directoryIsSuggested = false
        return .edited
    }

    /// Puts the folder the rules choose for the URL (and name) typed so far in the directory
    /// field, unless that field was edited by hand.
    private mutating func followRules(in context: Context) {
        guard fields[1].string == chosenDirectory, context.remotePlace == nil else { return }
        let url = try? DownloadURL.validate(fields[0].string)
        let typedName = fields[2].string.trimmed()
        let name = typedName.isEmpty ? url.flatMap(FileNaming.nameFromURL) : typedName
        let host = url.flatMap { URLParts($0)?.host }
        let folder =
            context.folderRules.folder(name: name, host: host, home: context.home) ?? context.defaultDirectory
        guard folder != chosenDirectory else { return }
        fields[1] = LineEditor(folder)
        chosenDirectory = folder
        directoryIsSuggested = true
    }

    /// The request Enter adds, or why it cannot. An empty folder is left to the engine's add path:
    /// the folder rules, else the download directory.
    private func submitted(in context: Context) -> Outcome {
        let typed = fields[0].string.trimmed()
        // A path, not an address: a torrent file on this machine.
        let path = PathText.expandingTilde(typed, home: context.home)
        let isPath = path.hasPrefix("/") && !typed.contains("://")
        if !isPath, typed.hasSuffix(".torrent"), !typed.contains("://") {
            return .refused("give the torrent file's whole path (from / or ~/)")
        }
        var url = ""
        if !isPath {
            do {
                url = try DownloadURL.validate(typed)
            } catch {
                return .refused(error.message)
            }
        }
        var directory = fields[1].string.trimmed()
        if let place = context.remotePlace {
            guard directory.isEmpty || directory.hasPrefix("/") else {
                return .refused(
                    "the folder is one on \(place): give its absolute path, or none for the engine's own")
            }
        } else {
            directory = PathText.expandingTilde(directory, home: context.home)
            guard directory.isEmpty || directory.hasPrefix("/") else {
                return .refused("the directory must be an absolute path (or start with ~/)")
            }
        }
        let name = fields[2].string.trimmed()
        let request = DownloadRequest(url: url, directory: directory, requestedName: name.isEmpty ? nil : name)
        return isPath ? .addTorrentFile(path: path, request) : .add(request)
    }

    func lines(width: Int, glyphs: Glyphs) -> [(String, Style)] {
        var result: [(String, Style)] = [("", .plain)]
        for (i, field) in fields.enumerated() {
            let label = DisplayWidth.fit(Self.labels[i] + ":", width: 11)
            let room = max(4, width - 18)
            let text = TerminalText.sanitize(field.string)
            let shown = DisplayWidth.of(text) > room ? glyphs.ellipsis + String(text.suffix(room - 1)) : text
            let cursor = i == focus ? (glyphs == .unicode ? "▏" : "_") : ""
            result.append((label + shown + cursor, i == focus ? .bold : .plain))
        }
        result.append(("", .plain))
        if focus == 1, directoryIsSuggested {
            result.append(("Typing replaces this folder; an arrow key keeps it to edit.", .dim))
        } else {
            result.append(("A URL, a magnet link or a .torrent file's path. Name is optional.", .dim))
        }
        result.append(("Tab next field · Enter add · Esc cancel", .dim))
        return result
    }

    /// Draws the dialog as a box over the list.
    func draw(into grid: inout Grid, glyphs: Glyphs) {
        BoxView.draw(
            title: Self.title, lines: lines(width: min(grid.width - 2, BoxView.maxWidth), glyphs: glyphs), into: &grid,
            glyphs: glyphs)
    }
}
