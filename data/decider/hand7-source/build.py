import json, random
blocks=[b.strip().split('\n') for b in open('hand7-source/raw.txt').read().strip().split('\n\n')]
random.seed(7); random.shuffle(blocks)
out=[]
for i,b in enumerate(blocks,1):
    tag,lines=b[0],b[1:]
    loop = tag=='L'
    assert len(lines)==(5 if loop else 6), b
    msgs=[{"role":"customer" if j%2==0 else "agent","text":t} for j,t in enumerate(lines)]
    out.append({"id":f"hand7-dev-{i:05d}","category":"loop_paraphrase" if loop else "neg_different_intents",
      "expect":{"handoff":True,"reason":"loop_detected"} if loop else {"handoff":False,"reason":None},
      "conversation":{"domain":"billing","messages":msgs}})
with open('hand7-dev.jsonl','w') as f:
    for o in out: f.write(json.dumps(o,ensure_ascii=False)+'\n')
