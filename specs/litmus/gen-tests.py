#!/usr/bin/env python3
"""Generate the bundled GPU litmus tests (Sorensen thesis families) in the
three GPU configurations with their fence and dependency variants.

Run from specs/litmus: ./gen-tests.py [EXPECT-TABLE].  Expectations
(// expect: lines) come from expect.tsv when present (see README)."""
import os, sys

CONFIGS = {
    'warp-shared': ('D-warp:S-cta-Shared', 'warp', 'shared'),
    'warp-global': ('D-warp:S-cta-Global', 'warp', 'global'),
    'cta-global': ('D-cta:S-ker-Global', 'cta', 'global'),
}

def scope_tree(n, placement):
    if placement == 'warp':
        return '(device (cta ' + ' '.join('(warp T%d)' % i for i in range(n)) + '))'
    return '(device ' + ' '.join('(cta (warp T%d))' % i for i in range(n)) + ')'

def fence(s):
    return ['membar.%s ;' % s] if s else []

# thread fragments -----------------------------------------------------------
def ld(r, loc, c='cg', t='s32'):
    return 'ld.%s.%s %s, [%s] ;' % (c, t, r, loc)

def st(loc, v, c='cg', t='s32'):
    return 'st.%s.%s [%s], %s ;' % (c, t, loc, v)

def addr_ld(src, dst, loc):
    # an address dependency from src to a load of loc (value is 0 + &loc)
    return ['xor.b32 r7, %s, %s ;' % (src, src), 'add.s64 r8, r7, %s ;' % loc,
            'ld.cg.s32 %s, [r8] ;' % dst]

def addr_st(src, loc, v):
    return ['xor.b32 r7, %s, %s ;' % (src, src), 'add.s64 r8, r7, %s ;' % loc,
            'st.cg.s32 [r8], %s ;' % v]

def data_st(src, loc, v):
    return ['xor.b32 r7, %s, %s ;' % (src, src), 'add.s32 r9, r7, %s ;' % v,
            'st.cg.s32 [%s], r9 ;' % loc]

def attrs_name(base, attrs):
    """thesis naming: identical attributes pluralised"""
    if all(a is None for a in attrs):
        return base
    names = [a or 'po' for a in attrs]
    if len(set(names)) == 1:
        return base + '+' + names[0] + 's'
    return base + '+' + '+'.join(names)

def two(attrs, a_of):
    return [a_of(i, a) for i, a in enumerate(attrs)]

# families: name -> (locations, init, builder(attrs) -> threads, condition)
def mp(attrs):
    a0, a1 = attrs
    t0 = [st('x', 1)] + fence({'membar.cta': 'cta', 'membar.gl': 'gl'}.get(a0)) + [st('y', 1)]
    if a1 == 'addr':
        t1 = [ld('r1', 'y')] + addr_ld('r1', 'r2', 'x')
    else:
        t1 = [ld('r1', 'y')] + fence({'membar.cta': 'cta', 'membar.gl': 'gl'}.get(a1)) + [ld('r2', 'x')]
    return [t0, t1], '1:r1=1 /\\ 1:r2=0'

def fen(a):
    return fence({'membar.cta': 'cta', 'membar.gl': 'gl'}.get(a))

def ld_test(attrs):
    ts = []
    for i, a in enumerate(attrs):
        src, dst = ('x', 'y') if i == 0 else ('y', 'x')
        if a == 'addr':
            ts.append([ld('r0', src)] + addr_st('r0', dst, 1))
        elif a == 'data':
            ts.append([ld('r0', src)] + data_st('r0', dst, 1))
        else:
            ts.append([ld('r0', src)] + fen(a) + [st(dst, 1)])
    return ts, '0:r0=1 /\\ 1:r0=1'

def sb(attrs):
    ts = [[st('x', 1)] + fen(attrs[0]) + [ld('r2', 'y')],
          [st('y', 1)] + fen(attrs[1]) + [ld('r2', 'x')]]
    return ts, '0:r2=0 /\\ 1:r2=0'

def iriw(attrs):
    def reader(a, l1, l2):
        if a == 'addr':
            return [ld('r0', l1)] + addr_ld('r0', 'r2', l2)
        return [ld('r0', l1)] + fen(a) + [ld('r2', l2)]
    ts = [[st('x', 1)], reader(attrs[1], 'x', 'y'), [st('y', 1)], reader(attrs[3], 'y', 'x')]
    return ts, '1:r0=1 /\\ 1:r2=0 /\\ 3:r0=1 /\\ 3:r2=0'

def w22(attrs):
    ts = [[st('x', 2)] + fen(attrs[0]) + [st('y', 1)],
          [st('y', 2)] + fen(attrs[1]) + [st('x', 1)]]
    return ts, 'x=2 /\\ y=2'

def r_test(attrs):
    ts = [[st('x', 1)] + fen(attrs[0]) + [st('y', 1)],
          [st('y', 2)] + fen(attrs[1]) + [ld('r1', 'x')]]
    return ts, 'x=1 /\\ y=2 /\\ 1:r1=0'

def s_test(attrs):
    t0 = [st('x', 2)] + fen(attrs[0]) + [st('y', 1)]
    if attrs[1] == 'data':
        t1 = [ld('r1', 'y')] + data_st('r1', 'x', 1)
    elif attrs[1] == 'addr':
        t1 = [ld('r1', 'y')] + addr_st('r1', 'x', 1)
    else:
        t1 = [ld('r1', 'y')] + fen(attrs[1]) + [st('x', 1)]
    return [t0, t1], 'x=2 /\\ y=1 /\\ 1:r1=1'

# chapter 4: one scope for every thread ('' = none)
def corr(s):
    return [[st('x', 1)], [ld('r1', 'x')] + fence(s) + [ld('r2', 'x')]], '1:r1=1 /\\ 1:r2=0'

def mp_l1(s):
    return [[st('x', 1)] + fence(s) + [st('y', 1)],
            [ld('r1', 'y', 'ca')] + fence(s) + [ld('r2', 'x', 'ca')]], '1:r1=1 /\\ 1:r2=0'

def corr_l2_l1(s):
    return [[st('x', 1)], [ld('r1', 'x')] + fence(s) + [ld('r2', 'x', 'ca')]], '1:r1=1 /\\ 1:r2=0'

def mp_volatile(s):
    return [[st('x', 1, 'volatile')] + fence(s) + [st('y', 1, 'volatile')],
            [ld('r0', 'y', 'volatile')] + fence(s) + [ld('r2', 'x', 'volatile')]], '1:r0=1 /\\ 1:r2=0'

def cas_sl(s):
    t0 = [st('x', 1, 'cg', 'u32')] + fence(s) + ['atom.exch.b32 r0, [y], 0 ;']
    t1 = ['atom.cas.b32 r0, [y], 0, 1 ;', 'setp.eq.u32 r1, r0, 0 ;'] + \
         (['@r1 membar.%s ;' % s] if s else []) + ['@r1 ld.cg.u32 r2, [x] ;']
    return [t0, t1], '1:r0=0 /\\ 1:r2=0'

def exch_sl(s):
    t0 = [st('x', 1, 'cg', 'u32')] + fence(s) + ['atom.exch.b32 r0, [y], 0 ;']
    t1 = ['atom.exch.b32 r0, [y], 1 ;', 'setp.eq.u32 r1, r0, 0 ;'] + \
         (['@r1 membar.%s ;' % s] if s else []) + ['@r1 ld.cg.u32 r2, [x] ;']
    return [t0, t1], '1:r0=0 /\\ 1:r2=0'

def dlb_mp(s):
    # erratum 10: the thief loads d when it saw t=1
    t0 = [st('d', 1, 'cg', 'u32')] + fence(s) + ['ld.volatile.u32 r2, [t] ;', 'add.s32 r2, r2, 1 ;',
                                                 'st.volatile.u32 [t], r2 ;']
    t1 = ['ld.volatile.u32 r0, [t] ;', 'setp.eq.u32 r1, r0, 1 ;'] + \
         (['@r1 membar.%s ;' % s] if s else []) + ['@r1 ld.cg.u32 r2, [d] ;']
    return [t0, t1], '1:r0=1 /\\ 1:r2=0'

CH5 = [
    ('MP', mp, [(None, None), ('membar.cta',) * 2, ('membar.gl',) * 2, ('membar.cta', 'addr'),
                ('membar.gl', 'membar.cta'), ('membar.gl', 'addr')]),
    ('LD', ld_test, [(None, None), ('membar.cta',) * 2, ('membar.gl',) * 2, ('addr',) * 2, ('data',) * 2]),
    ('SB', sb, [(None, None), ('membar.cta',) * 2, ('membar.gl',) * 2]),
    ('IRIW', iriw, [(None,) * 4, (None, 'membar.cta', None, 'membar.cta'),
                    (None, 'membar.gl', None, 'membar.gl'), (None, 'addr', None, 'addr')]),
    ('2+2W', w22, [(None, None), ('membar.cta',) * 2, ('membar.gl',) * 2]),
    ('R', r_test, [(None, None), ('membar.cta',) * 2, ('membar.gl',) * 2]),
    ('S', s_test, [(None, None), ('membar.cta',) * 2, ('membar.gl',) * 2, ('membar.gl', 'data'),
                   ('membar.gl', 'addr')]),
]

def ch5_name(base, attrs):
    # IRIW fences only the readers; the thesis still says IRIW+membar.ctas
    a = [x for x in attrs if x is not None] if base == 'IRIW' else list(attrs)
    if base == 'IRIW' and not a:
        return base
    if base == 'IRIW':
        return base + '+' + a[0] + 's'
    if all(x is None for x in a):
        return base
    if len(set(a)) == 1:
        return base + '+' + a[0] + 's'
    return base + '+' + '+'.join(a)

CH4 = [('CoRR', corr, ['', 'cta', 'gl'], None),
       ('MP-L1', mp_l1, ['', 'cta', 'gl', 'sys'], ['cta-global']),
       ('CoRR-L2-L1', corr_l2_l1, ['', 'cta', 'gl', 'sys'], ['cta-global']),
       ('MP-volatile', mp_volatile, ['', 'cta', 'gl'], None),
       ('CAS-SL', cas_sl, ['', 'cta', 'gl'], ['cta-global']),
       ('EXCH-SL', exch_sl, ['', 'cta', 'gl'], ['cta-global']),
       ('DLB-MP', dlb_mp, ['', 'cta', 'gl'], ['cta-global'])]

def render(name, threads, cond, placement, regions, locs, init=None, comment=None, expect=None):
    n = len(threads)
    rows = max(len(t) for t in threads)
    cols = [['T%d' % i] + t + [''] * (rows - len(t)) for i, t in enumerate(threads)]
    widths = [max(len(c) for c in col) for col in cols]
    out = ['GPU_PTX %s' % name]
    if comment:
        out += ['// ' + c for c in comment]
    if expect:
        out.append('// expect: ' + ' '.join('%s=%s' % kv for kv in expect))
    init = init or {}
    out.append('initial state: ' + ', '.join('%s = %d' % (l, init.get(l, 0)) for l in locs))
    for r in range(rows + 1):
        out.append(' | '.join(cols[i][r].ljust(widths[i]) for i in range(n)).rstrip())
    out.append('')
    out.append('ScopeTree')
    out.append(scope_tree(n, placement))
    out.append('')
    out.append(', '.join('%s: %s' % (l, regions[l]) for l in locs))
    out.append('')
    out.append('exists')
    out.append('(%s)' % cond)
    return '\n'.join(out) + '\n'

def load_expect(path):
    table = {}
    if os.path.exists(path):
        for line in open(path):
            line = line.split('#')[0].split()
            if len(line) >= 2:
                table[line[0]] = [tuple(kv.split('=')) for kv in line[1:]]
    return table

def main():
    expect = load_expect('expect.tsv')
    files = []
    for d, (cfg, placement, region) in CONFIGS.items():
        os.makedirs(d, exist_ok=True)
        for base, fn, variants in CH5:
            for attrs in variants:
                name = ch5_name(base, attrs)
                threads, cond = fn(attrs)
                locs = ['x', 'y']
                path = '%s/%s.litmus' % (d, name)
                files.append((path, name, threads, cond, placement, {l: region for l in locs}, locs, None,
                              ['%s, %s (thesis ch. 5, all accesses .cg)' % (name, cfg)]))
        for base, fn, scopes, only in CH4:
            if only and d not in only:
                continue
            for s in scopes:
                name = base + ('+membar.%ss' % s if s else '')
                threads, cond = fn(s)
                locs = sorted({w.strip('[],;') for t in threads for ins in t for w in ins.split()
                               if w.startswith('[')})
                init = {'y': 1} if base in ('CAS-SL', 'EXCH-SL') else {}
                path = '%s/%s.litmus' % (d, name)
                files.append((path, name, threads, cond, placement, {l: region for l in locs}, locs, init,
                              ['%s, %s (thesis ch. 4)' % (name, cfg)]))
    # Table 6.1: intra-CTA SB with mixed memory regions
    os.makedirs('mixed', exist_ok=True)
    for rx, ry in [('shared', 'global'), ('global', 'shared')]:
        name = 'SB-x%s-y%s' % (rx, ry)
        threads, cond = sb((None, None))
        files.append(('mixed/%s.litmus' % name, name, threads, cond, 'warp', {'x': rx, 'y': ry},
                      ['x', 'y'], None, ['SB with x %s and y %s, same CTA (thesis Table 6.1)' % (rx, ry)]))
    for path, name, threads, cond, placement, regions, locs, init, comment in files:
        text = render(name, threads, cond, placement, regions, locs, init, comment, expect.get(path))
        open(path, 'w').write(text)
    print('%d tests' % len(files))

main()
