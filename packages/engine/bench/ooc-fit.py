# Fits the specificity gate: logistic regression over per-hit features written by ooc-features.ts.
# Run: node --import tsx packages/engine/bench/ooc-features.ts && LIMIT=300 OUT=/tmp/ooc/small.json node --import tsx packages/engine/bench/ooc-features.ts && python3 packages/engine/bench/ooc-fit.py
# (needs numpy). Prints, per feature set, the weights and R@5 / out-of-corpus-nothing on held-out questions and on the small corpus.
import json, math, numpy as np, sys
def load(p): return json.load(open(p))
def feats(d,h):
    toks=d['toks']; W=sum(t['w'] for t in toks) or 1
    m=set(h['matched'])
    present=[t for t in toks if t['df']>0]
    Wp=sum(t['w'] for t in present) or 1
    got=sum(t['w'] for t in toks if t['t'] in m)
    absent=sum(t['w'] for t in toks if t['df']==0)/W
    mi=d['maxIdf']
    miss=sum(t['w'] for t in present if t['t'] not in m and t['idf']>=0.4*mi)/W
    mmax=max([t['idf'] for t in toks if t['t'] in m] or [0])/mi
    qidf=sum(t['idf'] for t in present) or 1
    return [h['cov'], got/Wp, absent, miss, mmax, h['lex']/qidf, len(toks)/10]
NAMES=['cov','covp','absent','miss','mmaxRel','lexNorm','ntok']
def train(D, use):
    X=[];Y=[]
    for i,d in enumerate(D):
        if i%2: continue
        for h in d['hits'][:5]:
            X.append([feats(d,h)[j] for j in use]); Y.append(1 if (d['gold'] and h['isGold']) else 0)
    X=np.array(X);Y=np.array(Y)
    w=np.zeros(X.shape[1]+1); Xb=np.c_[X,np.ones(len(X))]
    for it in range(6000):
        p=1/(1+np.exp(-Xb@w)); w-=1.0*Xb.T@(p-Y)/len(Y)
    return w
def ev(D,w,use,th,part=None):
    sc=lambda d,h: float(np.r_[[feats(d,h)[j] for j in use],1]@w)
    sel=lambda i: part is None or i%2==part
    inc=[d for i,d in enumerate(D) if d['gold'] and sel(i)]; ooc=[d for i,d in enumerate(D) if not d['gold'] and sel(i)]
    ok=sum(1 for d in inc if any(h['isGold'] for h in [h for h in d['hits'] if sc(d,h)>=th][:5]))
    rej=sum(1 for d in ooc if not any(sc(d,h)>=th for h in d['hits']))
    return round(ok/len(inc),3), round(rej/len(ooc),3)
BIG=load('/tmp/ooc/features.json'); SMALL=load('/tmp/ooc/small.json')
for use in [[0,4],[0,4,5],[0,1,2,3,4,5,6],[0,2,4,5]]:
    w=train(BIG,use); print([NAMES[j] for j in use], np.round(w,2))
    for th in [-4,-3,-2.5,-2]:
        print('  th',th,'big-test',ev(BIG,w,use,th,1),'small',ev(SMALL,w,use,th))
