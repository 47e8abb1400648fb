import XCTest

@testable import HaulCore
@testable import HaulUI

/// The dialogs on their own, without a controller or a screen: each key's outcome.
final class DialogTests: XCTestCase {
    private let local = AddDialog.Context(
        folderRules: FolderRules(), home: "/home/u", defaultDirectory: "/dl", remotePlace: nil)

    private func type(_ text: String, into dialog: inout AddDialog, in context: AddDialog.Context) {
        for ch in text { XCTAssertEqual(dialog.handle(.character(ch), in: context), .edited) }
    }

    func testTheAddDialogAddsWhatWasTypedAndRefusesWhatCannotBeAdded() {
        var dialog = AddDialog(in: local)
        XCTAssertEqual(dialog.fields[1].string, "/dl", "the download directory to begin with")
        XCTAssertEqual(dialog.handle(.enter, in: local), .refused("empty URL"))
        type("https://example.org/a b.iso", into: &dialog, in: local)
        XCTAssertEqual(dialog.handle(.tab, in: local), .edited)
        XCTAssertEqual(dialog.focus, 1)
        XCTAssertEqual(dialog.handle(.control("u"), in: local), .edited)
        type("~/isos", into: &dialog, in: local)
        XCTAssertEqual(dialog.handle(.tab, in: local), .edited)
        type("x.iso", into: &dialog, in: local)
        XCTAssertEqual(
            dialog.handle(.enter, in: local),
            .add(
                DownloadRequest(
                    url: "https://example.org/a%20b.iso", directory: "/home/u/isos", requestedName: "x.iso")))

        _ = dialog.handle(.backTab, in: local)
        _ = dialog.handle(.control("u"), in: local)
        type("isos", into: &dialog, in: local)
        XCTAssertEqual(
            dialog.handle(.enter, in: local), .refused("the directory must be an absolute path (or start with ~/)"))
        XCTAssertEqual(dialog.handle(.escape, in: local), .closed)
    }

    /// The folder the dialog suggests is replaced by what is typed, as a selected field is; an
    /// arrow key keeps it to be edited, and a new suggestion is selected again.
    func testTypingInTheDirectoryFieldReplacesTheSuggestedFolder() throws {
        var dialog = AddDialog(in: local)
        type("http://h/a.bin", into: &dialog, in: local)
        _ = dialog.handle(.tab, in: local)
        XCTAssertTrue(dialog.lines(width: 70, glyphs: .unicode).contains { $0.0.hasPrefix("Typing replaces") })
        type("/srv/x", into: &dialog, in: local)
        XCTAssertEqual(dialog.fields[1].string, "/srv/x", "typed in place of /dl, not after it")
        XCTAssertFalse(dialog.lines(width: 70, glyphs: .unicode).contains { $0.0.hasPrefix("Typing replaces") })

        var kept = AddDialog(in: local)
        _ = kept.handle(.tab, in: local)
        XCTAssertEqual(kept.handle(.left, in: local), .edited)
        XCTAssertEqual(kept.handle(.end, in: local), .edited)
        type("/sub", into: &kept, in: local)
        XCTAssertEqual(kept.fields[1].string, "/dl/sub", "an arrow key first: the folder is edited")

        var erased = AddDialog(in: local)
        _ = erased.handle(.tab, in: local)
        XCTAssertEqual(erased.handle(.backspace, in: local), .edited)
        XCTAssertEqual(erased.fields[1].string, "", "Backspace erases the whole suggestion")

        let rules = try FolderRulesFile.parse("*.iso = ~/Images\n")
        let ruled = AddDialog.Context(folderRules: rules, home: "/home/u", defaultDirectory: "/dl", remotePlace: nil)
        var again = AddDialog(in: ruled)
        _ = again.handle(.tab, in: ruled)
        _ = again.handle(.right, in: ruled)
        _ = again.handle(.backTab, in: ruled)
        type("http://h/a.iso", into: &again, in: ruled)
        _ = again.handle(.tab, in: ruled)
        type("/mnt", into: &again, in: ruled)
        XCTAssertEqual(again.fields[1].string, "/mnt", "the rule's folder is a suggestion too")
        XCTAssertEqual(
            again.handle(.enter, in: ruled), .add(DownloadRequest(url: "http://h/a.iso", directory: "/mnt")))
    }

    func testAPathInTheAddDialogAddsTheTorrentFileThere() {
        var dialog = AddDialog(in: local)
        type("~/get/set.torrent", into: &dialog, in: local)
        XCTAssertEqual(
            dialog.handle(.enter, in: local),
            .addTorrentFile(path: "/home/u/get/set.torrent", DownloadRequest(url: "", directory: "/dl")))
        var relative = AddDialog(in: local)
        type("set.torrent", into: &relative, in: local)
        XCTAssertEqual(
            relative.handle(.enter, in: local), .refused("give the torrent file's whole path (from / or ~/)"))
    }

    func testTheFilesBoxMovesTogglesAndNeverChoosesNoFile() {
        var picker = FilesPicker(id: DownloadID(rawValue: "abc123"), selection: nil)
        XCTAssertEqual(picker.handle(.up, fileCount: 4, page: 2), .edited)
        XCTAssertEqual(picker.cursor, 0, "the first file is the top")
        XCTAssertEqual(picker.handle(.character(" "), fileCount: 4, page: 2), .select(try! FileSelection("2-4")))
        XCTAssertEqual(picker.handle(.end, fileCount: 4, page: 2), .edited)
        XCTAssertEqual(picker.cursor, 3)
        XCTAssertEqual(picker.handle(.down, fileCount: 4, page: 2), .edited)
        XCTAssertEqual(picker.cursor, 3, "the last file is the bottom")
        XCTAssertEqual(picker.handle(.character(" "), fileCount: 4, page: 2), .select(try! FileSelection("2-3")))
        XCTAssertEqual(picker.firstShown(page: 2, fileCount: 4), 2, "the cursor stays in view")
        XCTAssertEqual(picker.handle(.character("a"), fileCount: 4, page: 2), .select(nil))
        // Every file skipped but one: that one stays.
        var one = FilesPicker(id: DownloadID(rawValue: "abc123"), selection: try! FileSelection("1"))
        XCTAssertEqual(
            one.handle(.character(" "), fileCount: 4, page: 2),
            .refused("a torrent fetches at least one file: pause it to fetch none"))
        XCTAssertEqual(one.selection, try! FileSelection("1"))
        XCTAssertEqual(one.handle(.escape, fileCount: 4, page: 2), .closed)
        // Toggled back to all of them, the choice is every file (nil), as aria2 has no select-file.
        var back = FilesPicker(id: DownloadID(rawValue: "abc123"), selection: try! FileSelection("2-4"))
        XCTAssertEqual(back.handle(.character(" "), fileCount: 4, page: 2), .select(nil))
    }

    func testAnotherMachinesDialogNamesItsFoldersAndFollowsNoRules() throws {
        let rules = try FolderRulesFile.parse("*.iso = ~/Images\n")
        let remote = AddDialog.Context(
            folderRules: rules, home: "/home/u", defaultDirectory: "/dl", remotePlace: "nas:6800")
        var dialog = AddDialog(in: remote)
        XCTAssertEqual(dialog.fields[1].string, "", "none: the engine's own folder")
        type("http://h/a.iso", into: &dialog, in: remote)
        XCTAssertEqual(dialog.fields[1].string, "", "this machine's rules say nothing of that machine's folders")
        _ = dialog.handle(.tab, in: remote)
        type("srv", into: &dialog, in: remote)
        XCTAssertEqual(
            dialog.handle(.enter, in: remote),
            .refused("the folder is one on nas:6800: give its absolute path, or none for the engine's own"))

        var here = AddDialog(
            in: AddDialog.Context(folderRules: rules, home: "/home/u", defaultDirectory: "/dl", remotePlace: nil))
        let context = AddDialog.Context(folderRules: rules, home: "/home/u", defaultDirectory: "/dl", remotePlace: nil)
        type("http://h/a.iso", into: &here, in: context)
        XCTAssertEqual(here.fields[1].string, "/home/u/Images", "the rule's folder as the URL is typed")
    }

    func testEachAnswerToEachQuestion() {
        let id = DownloadID(rawValue: "a1b2c3")
        var deletable: String? = "/dl/a.iso"
        let context = Confirmation.Context(name: { _ in "a.iso" }, deletableFile: { _ in deletable })
        let yes = Key.character("y")
        let no = Key.character("n")

        XCTAssertEqual(Confirmation.cancel(id).answer(yes, in: context), .done(message: nil, [.cancel(.ids([id]))]))
        XCTAssertEqual(Confirmation.cancel(id).answer(no, in: context), .done(message: "nothing changed", []))
        XCTAssertEqual(Confirmation.remove(id).answer(yes, in: context), .ask(.deleteFile(id)))
        XCTAssertEqual(
            Confirmation.deleteFile(id).answer(.character("Y"), in: context),
            .done(message: nil, [.remove(.ids([id]), deleteFiles: true)]))
        XCTAssertEqual(
            Confirmation.deleteFile(id).answer(.enter, in: context),
            .done(message: "removed from the list; the file was kept", [.remove(.ids([id]), deleteFiles: false)]))
        deletable = nil
        XCTAssertEqual(
            Confirmation.remove(id).answer(yes, in: context),
            .done(message: nil, [.remove(.ids([id]), deleteFiles: false)]), "nothing of this machine's to delete")
        XCTAssertEqual(
            Confirmation.allowAndResume(id).answer(yes, in: context),
            .done(message: nil, [.allowMetered(.ids([id]), true), .resume(.ids([id]))]))
        XCTAssertEqual(Confirmation.quitWhileRunning(count: 2).answer(yes, in: context), .quit(.background))
        XCTAssertEqual(Confirmation.quitWhileRunning(count: 2).answer(no, in: context), .quit(.pause))
        XCTAssertEqual(
            Confirmation.quitWhileRunning(count: 2).answer(.escape, in: context), .done(message: "still here", []))
        XCTAssertEqual(
            Confirmation.quitWhileRunning(count: 1).text(in: context),
            "1 download is running. Keep downloading in the background? [y]es · [n]o, pause · Esc stays")
        XCTAssertEqual(Confirmation.remove(id).text(in: context), "Remove a.iso from the list? [y/N]")
    }
}
