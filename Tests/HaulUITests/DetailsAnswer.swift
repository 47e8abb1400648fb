import HaulCore

@testable import HaulUI

extension TUIController {
    /// Presses Enter on the selected row and answers the details box's question for the whole
    /// download from `downloads`, as the backend answers it from the engine.
    func openDetails(answering downloads: [Download]) {
        for case .describe(let id) in handle(.enter) { describe(downloads.first { $0.id == id }, id: id) }
    }
}
