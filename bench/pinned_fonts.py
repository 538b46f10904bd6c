"""One private Fontconfig configuration over fonts/ for the benches that run pango-view beside
hlrender, so both see the same pinned fonts and nothing of the system's.

Fontconfig hands a bitmap colour font (Noto Color Emoji) its own strike size, 109 px, whatever
size was asked, and pango-view 1.50 then measures and draws every emoji 3.5 em wide. The rule
below gives such a font the requested pixel size back (hlrender scales the strike itself), so
both tools measure the same emoji."""
import os


def write_conf(repo, work):
    path = os.path.join(work, "fonts.conf")
    with open(path, "w") as f:
        f.write(f'<?xml version="1.0"?><fontconfig><dir>{repo}/fonts</dir><cachedir>{work}/cache</cachedir>'
                '<match target="font"><test name="color"><bool>true</bool></test>'
                '<edit name="pixelsize" mode="assign"><name target="pattern">pixelsize</name></edit></match>'
                '</fontconfig>')
    return path
