import json, random, re
raw = open('hand8-source/raw.txt', encoding='utf-8').read().strip()
blocks = [b.strip().splitlines() for b in re.split(r'\n\s*\n', raw)]
cases = []
for b in blocks:
    kind = b[0].strip()
    msgs = []
    for line in b[1:]:
        role = {'C': 'customer', 'A': 'agent'}[line[0]]
        assert line[1:3] == ': ', line
        msgs.append({'role': role, 'text': line[3:].strip()})
    if kind == 'N':
        cat, exp = 'neg_different_intents', {'handoff': False, 'reason': None}
    else:
        cat, exp = 'loop_paraphrase', {'handoff': True, 'reason': 'loop_detected'}
    cases.append((cat, exp, msgs))
random.Random(8).shuffle(cases)
with open('hand8-dev.jsonl', 'w', encoding='utf-8') as f:
    for i, (cat, exp, msgs) in enumerate(cases, 1):
        f.write(json.dumps({'id': f'hand8-dev-{i:05d}', 'category': cat, 'expect': exp,
                            'conversation': {'domain': 'billing', 'messages': msgs}}, ensure_ascii=False) + '\n')

# validate
bad = re.compile(r"^\W*(also|and|ok|okay|thanks|thank|another|what about)\b", re.I)
lines = open('hand8-dev.jsonl', encoding='utf-8').read().splitlines()
assert len(lines) == 120
cnt = {}
texts = set()
for i, l in enumerate(lines, 1):
    o = json.loads(l)
    assert o['id'] == f'hand8-dev-{i:05d}'
    cnt[o['category']] = cnt.get(o['category'], 0) + 1
    m = o['conversation']['messages']
    n = 6 if o['category'] == 'neg_different_intents' else 5
    assert len(m) == n, (o['id'], len(m))
    for j, x in enumerate(m):
        assert x['role'] == ('customer' if j % 2 == 0 else 'agent'), o['id']
        assert x['text']
        if x['role'] == 'customer':
            assert not bad.match(x['text']), (o['id'], x['text'])
            assert x['text'] not in texts, x['text']
            texts.add(x['text'])
assert cnt == {'neg_different_intents': 80, 'loop_paraphrase': 40}, cnt
print('OK', len(lines), cnt)
