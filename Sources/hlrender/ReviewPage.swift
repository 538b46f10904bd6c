import Goldens
import Support

/// The review page of `compare --review`: each failing file with expected, actual (a slider
/// over the expected one) and the difference (click to zoom), Approve and Reject, "approve all"
/// per kind of change, and the keyboard (j/k, a, r, z). Every text is escaped; the page loads
/// nothing from elsewhere.
enum ReviewPage {
    /// A file the review shows: its place in the run, path, status word, kind of change.
    struct Item {
        var index: Int
        var path: String
        var status: GoldenStatus
        var kind: String
        var message: String
        var approvable: Bool
        /// A difference image was made (not for a size change).
        var difference: Bool
    }

    static func html(_ items: [Item], title: String) -> String {
        let kinds = Dictionary(grouping: items.filter(\.approvable), by: \.kind).sorted { $0.key < $1.key }
        var out = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(title.xmlEscaped)</title><style>
            body{font:14px system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}
            header{position:sticky;top:0;background:#18181b;color:#fff;padding:10px 16px;z-index:2}
            header h1{font-size:16px;margin:0 0 6px}header button{margin-right:6px}
            section{background:#fff;margin:12px 16px;padding:10px 14px;border-left:5px solid #a1a1aa}
            section.current{border-left-color:#2563eb;outline:2px solid #2563eb}
            section.approved{border-left-color:#16a34a}section.rejected{border-left-color:#dc2626}
            .images{display:flex;gap:12px;align-items:flex-start;flex-wrap:wrap}figure{margin:0}
            figure img{max-width:360px;display:block;border:1px solid #d4d4d8}
            .stack{position:relative}.stack .over{position:absolute;left:0;top:0;clip-path:inset(0 0 0 50%)}
            .diff{overflow:hidden;max-width:360px}.diff img.zoomed{transform:scale(4);image-rendering:pixelated}
            .decision{font-weight:bold;margin-left:8px}.keys{opacity:.7;margin:4px 0 0}
            </style></head><body><header><h1>\(title.xmlEscaped)</h1><div>
            """
        for (kind, group) in kinds {
            out += "<button class=\"kind\" data-kind=\"\(kind.xmlEscaped)\">Approve all \(kind.xmlEscaped) (\(group.count))</button>"
        }
        out += """
            <button id="done">Done</button></div>
            <p class="keys">j / k: next, previous &middot; a: approve &middot; r: reject &middot; z: zoom the difference</p></header><main>
            """
        for item in items {
            let i = item.index
            out += """
                <section id="e\(i)" data-index="\(i)"><h2>\(item.path.xmlEscaped) <small>\(item.status.rawValue)\
                \(item.kind == item.status.rawValue ? "" : " (\(item.kind.xmlEscaped))")</small><span class="decision" id="d\(i)"></span></h2>
                <p>\(item.message.xmlEscaped)</p>
                <div class="images">
                """
            if item.status != .new {
                out += "<figure><figcaption>expected</figcaption><img alt=\"expected\" src=\"image/\(i)/expected\"></figure>"
            }
            if item.status == .changed {
                out += """
                    <figure class="slider"><figcaption>expected | actual <input type="range" min="0" max="100" value="50" \
                    aria-label="slider"></figcaption><div class="stack"><img alt="expected" src="image/\(i)/expected"><img class="over" \
                    alt="actual" src="image/\(i)/actual"></div></figure>
                    """
                if item.difference {
                    out += """
                        <figure class="diff"><figcaption>difference (click or z: zoom)</figcaption><img alt="difference" \
                        src="image/\(i)/difference"></figure>
                        """
                }
            } else if item.status != .missing {
                out += "<figure><figcaption>actual</figcaption><img alt=\"actual\" src=\"image/\(i)/actual\"></figure>"
            }
            out += "</div>"
            if item.approvable {
                out += "<button class=\"approve\" data-index=\"\(i)\">Approve</button> <button class=\"reject\" data-index=\"\(i)\">Reject</button>"
            }
            out += "</section>\n"
        }
        out += "</main><script>\n" + script + "</script></body></html>\n"
        return out
    }

    private static let script = """
        const entries = [...document.querySelectorAll('section')];
        let current = 0;
        function show(i) {
          if (!entries.length) return;
          current = Math.max(0, Math.min(entries.length - 1, i));
          entries.forEach((e, k) => e.classList.toggle('current', k === current));
          entries[current].scrollIntoView({block: 'nearest'});
        }
        function apply(state) {
          for (const d of state.decisions) {
            const e = document.getElementById('e' + d.index);
            document.getElementById('d' + d.index).textContent = d.decision;
            e.classList.toggle('approved', d.decision === 'approved');
            e.classList.toggle('rejected', d.decision === 'rejected');
          }
        }
        async function post(route) {
          const response = await fetch(route, {method: 'POST'});
          apply(await response.json());
        }
        function decide(verb) {
          const e = entries[current];
          if (e && e.querySelector('.approve')) post(verb + '/' + e.dataset.index).then(() => show(current + 1));
        }
        document.querySelectorAll('button.approve').forEach(b => b.onclick = () => post('approve/' + b.dataset.index));
        document.querySelectorAll('button.reject').forEach(b => b.onclick = () => post('reject/' + b.dataset.index));
        document.querySelectorAll('button.kind').forEach(b => b.onclick = () => post('approve-kind/' + encodeURIComponent(b.dataset.kind)));
        document.querySelectorAll('.slider input').forEach(s => s.oninput = () => {
          s.closest('figure').querySelector('.over').style.clipPath = 'inset(0 0 0 ' + s.value + '%)';
        });
        document.querySelectorAll('.diff img').forEach(img => img.onclick = () => img.classList.toggle('zoomed'));
        document.getElementById('done').onclick = async () => {
          await fetch('done', {method: 'POST'});
          document.body.innerHTML = '<p id="finished">Review finished: the baselines approved are written. You can close this page.</p>';
        };
        document.addEventListener('keydown', ev => {
          if (ev.key === 'j') show(current + 1);
          else if (ev.key === 'k') show(current - 1);
          else if (ev.key === 'a') decide('approve');
          else if (ev.key === 'r') decide('reject');
          else if (ev.key === 'z') entries[current]?.querySelector('.diff img')?.classList.toggle('zoomed');
        });
        fetch('state').then(r => r.json()).then(apply);
        show(0);

        """
}
