#!/usr/bin/env python3
"""docs/ec2fit.1's COMMAND OPTIONS section, generated from each command's
--help, and the flag-table check (issue 28, point 8).

Every command's flags are parsed by one getopt_long table; the hidden
`ec2fit __complete flags:CMD` prints it ("--model", "-m --model"). Each
command's --help lists its flags in grouped entries: an entry is a line
indented 2 to 6 spaces that starts with '-'; its synopsis is the text up to
the first run of two spaces (the flags and their values), the rest and the
deeper-indented lines below it are the description; a heading is an
unindented line ending in ':' followed by an entry.

    gen_man_options.py EC2FIT MAN           rewrite MAN's generated section
    gen_man_options.py --check EC2FIT MAN   exit 1 naming every flag the
        parser accepts that a --help or the man page misses or lists twice,
        every listed flag the parser does not accept, a short flag not on
        its long flag's entry, a heading given twice, or a MAN that differs
        from what this script would write.
"""
import re
import subprocess
import sys

BEGIN = '.\\" BEGIN GENERATED: tools/gen_man_options.py (from each --help)'
END = '.\\" END GENERATED'
FLAG = re.compile(r'(?:^|(?<=[\s,|(\[]))(--?[A-Za-z0-9][A-Za-z0-9-]*)')


def run(ec2fit, *args):
    return subprocess.run([ec2fit, *args], check=True, stdout=subprocess.PIPE,
                          text=True).stdout


def commands(ec2fit):
    out, on = [], False
    for line in run(ec2fit, '--help').splitlines():
        if line.startswith('Commands:'):
            on = True
        elif on and line.startswith('  '):
            if line.split()[0] != 'help':
                out.append(line.split()[0])
        elif on:
            on = False
    return out


def parse_help(text):
    """[(heading or None, [(synopsis, [description lines])])]"""
    lines = text.splitlines()
    groups, cur, entry = [], None, None
    for i, line in enumerate(lines):
        m = re.match(r'^( {2,6})(-.*)$', line)
        if m:
            body = m.group(2)
            parts = re.split(r' {2,}', body, maxsplit=1)
            syn, desc = parts[0], parts[1] if len(parts) > 1 else ''
            if cur is None:
                cur = (None, [])
                groups.append(cur)
            entry = (syn.strip(), [desc.strip()] if desc.strip() else [])
            cur[1].append(entry)
            continue
        if entry and re.match(r'^ {8,}\S', line):
            entry[1].append(line.strip())
            continue
        entry = None
        nxt = lines[i + 1] if i + 1 < len(lines) else ''
        if re.match(r'^[A-Za-z].*:$', line) and re.match(r'^ {2,6}-', nxt):
            cur = (line[:-1], [])
            groups.append(cur)
        else:
            cur = None if not line.strip() else cur
    return groups


def headings(text):
    """every unindented line ending in ':' (a group title)"""
    return [l[:-1] for l in text.splitlines() if re.match(r'^[A-Za-z].*:$', l)]


def synopsis_flags(syn):
    return FLAG.findall(syn)


def parser_flags(ec2fit, cmd):
    longs, shorts = [], {}
    for line in run(ec2fit, '__complete', 'flags:' + cmd).splitlines():
        w = line.split()
        if w[0].startswith('--'):
            longs.append(w[0])
        else:
            shorts[w[0]] = w[1] if len(w) > 1 else None
    return longs, shorts


def help_text(ec2fit, cmd):
    return run(ec2fit, '--help') if cmd == 'main' else run(ec2fit, cmd, '--help')


def esc(s):
    s = s.replace('\\', '\\e').replace('-', '\\-')
    return '\\&' + s if s[:1] in ('.', "'") else s


def syn_roff(syn):
    out = []
    for tok in re.split(r'(\s+)', syn):
        if FLAG.fullmatch(tok.rstrip(',')):
            comma = ',' if tok.endswith(',') else ''
            out.append('\\fB' + esc(tok.rstrip(',')) + '\\fR' + comma)
        elif tok.strip():
            m = re.match(r'^(--?[A-Za-z0-9][A-Za-z0-9-]*)(.*)$', tok)
            if m:
                out.append('\\fB' + esc(m.group(1)) + '\\fR\\fI' + esc(m.group(2)) + '\\fR')
            else:
                out.append('\\fI' + esc(tok) + '\\fR')
        else:
            out.append(' ')
    return ''.join(out)


def generate(ec2fit):
    out = [BEGIN, '.SH COMMAND OPTIONS',
           'Every flag of every command, as its',
           '.B \\-\\-help',
           'lists it (the same short letter means the same flag in every command).']
    for cmd in ['main'] + commands(ec2fit):
        out.append('.SS ' + ('"Global options"' if cmd == 'main' else '"ec2fit ' + cmd + '"'))
        for heading, entries in parse_help(help_text(ec2fit, cmd)):
            if heading:
                out += ['.PP', '\\fI' + esc(heading) + '\\fR']
            for syn, desc in entries:
                out += ['.TP', syn_roff(syn)]
                if desc:
                    out.append(esc(' '.join(desc)))
    out.append(END)
    return '\n'.join(out) + '\n'


def splice(man, section):
    if BEGIN in man and END in man:
        a = man.index(BEGIN)
        b = man.index(END) + len(END) + 1
        return man[:a] + section + man[b:]
    a = man.index('.SH EXIT STATUS')
    return man[:a] + section + man[a:]


def man_flags(man_section):
    """{cmd: [flags on .TP synopsis lines]}"""
    res, cmd, lines = {}, None, man_section.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r'^\.SS "(?:ec2fit )?(.*)"$', line)
        if m:
            cmd = 'main' if m.group(1) == 'Global options' else m.group(1)
            res[cmd] = []
        elif line == '.TP' and cmd and i + 1 < len(lines):
            plain = re.sub(r'\\f[BIR]', '', lines[i + 1]).replace('\\-', '-')
            res[cmd] += synopsis_flags(plain)
    return res


def check(ec2fit, man_path):
    errs = []
    man = open(man_path).read()
    section = generate(ec2fit)
    if splice(man, section) != man:
        errs.append(f'{man_path}: COMMAND OPTIONS differs from the --help '
                    'texts; run tools/gen_man_options.py')
    mflags = man_flags(man[man.index(BEGIN):] if BEGIN in man else '')
    n = 0
    for cmd in ['main'] + commands(ec2fit):
        longs, shorts = parser_flags(ec2fit, cmd)
        text = help_text(ec2fit, cmd)
        groups = parse_help(text)
        heads = headings(text)
        for h in set(heads):
            if heads.count(h) > 1:
                errs.append(f'{cmd} --help: heading "{h}:" {heads.count(h)} times')
        listed = [f for _, es in groups for syn, _ in es for f in synopsis_flags(syn)]
        for where, got in ((f'{cmd} --help', listed),
                           (f'man page ({cmd})', mflags.get(cmd, []))):
            for f in longs + list(shorts):
                if got.count(f) != 1:
                    errs.append(f'{where}: {f} listed {got.count(f)} times '
                                '(the parser accepts it; want once)')
            for f in sorted(set(got) - set(longs) - set(shorts)):
                errs.append(f'{where}: {f} is listed but the parser does not accept it')
        for s, lng in shorts.items():
            if lng and not any(s in synopsis_flags(syn) and lng in synopsis_flags(syn)
                               for _, es in groups for syn, _ in es):
                errs.append(f'{cmd} --help: {s} is not on the entry of {lng}')
        n += len(longs) + len(shorts)
    for e in errs:
        print('FAIL: ' + e)
    print(f'flag table: {n} flags over {len(commands(ec2fit)) + 1} commands, '
          f'{len(errs)} problems')
    return 1 if errs else 0


def main(argv):
    if len(argv) == 4 and argv[1] == '--check':
        return check(argv[2], argv[3])
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    man = open(argv[2]).read()
    new = splice(man, generate(argv[1]))
    if new != man:
        open(argv[2], 'w').write(new)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
