#!/usr/bin/python3
"""Which blend space keeps a tagged image's thumbnail closest to its sRGB twin's (docs/imaging.md,
"Colour management: converting after the resize").

The colour tests' chart (TestImages.colourChart, 96x64 of 16-px patches, scaled 4x to 384x256 as
ColourThumbnailTests does) is put in Adobe RGB (1998) and ProPhoto (pure matrix + gamma, Bradford to
D50) and reduced 4x to 96x64 with Pillow's Lanczos3 (float, per channel) four ways:

- convert-first: convert to sRGB at the source size, resize in sRGB's encoding (thumbify before);
- planar/profile-curve: resize in the profile's own encoding, then convert (what the planar path's
  Y'CbCr resize is, the transform being affine);
- srgb-curve+profile-primaries: re-encode each channel to sRGB's curve, resize, convert the primaries
  (branch imaging-icc-deferred, be72a2a);
- linear: resize in linear light, then the matrix and sRGB's encode curve.

Each is compared by CIEDE2000 with the untagged reference, which thumbify resizes in sRGB's encoding
(as vipsthumbnail and Pillow do). No codec is involved: this is the blend's own error only.

    /usr/bin/python3 Benchmarks/imaging/blend-space.py
"""
import numpy as np
from PIL import Image
patches=[(230,30,30),(30,200,40),(40,60,220),(250,220,20),(20,210,220),(210,40,200),(225,170,140),(120,80,60),(90,150,220),(60,120,40),(250,130,20),(140,20,60),(0,0,0),(40,40,40),(90,90,90),(140,140,140),(200,200,200),(255,255,255),(255,0,0),(0,255,0),(0,0,255),(128,0,0),(0,128,0),(0,0,128)]
small=np.zeros((64,96,3))
for y in range(64):
  for x in range(96): small[y,x]=patches[(y//16)*6+x//16]
chart=np.repeat(np.repeat(small,4,0),4,1)/255.0
def dec(v): return np.where(v<=0.04045,v/12.92,((v+0.055)/1.055)**2.4)
def enc(l): l=np.clip(l,0,1); return np.where(l<=0.0031308,12.92*l,1.055*l**(1/2.4)-0.055)
def xyz_matrix(prims,white):
  P=[]
  for x,y in prims: P.append([x/y,1,(1-x-y)/y])
  P=np.array(P).T; W=np.array([white[0]/white[1],1,(1-white[0]-white[1])/white[1]])
  S=np.linalg.solve(P,W); return P*S
srgbM=xyz_matrix([(0.64,0.33),(0.30,0.60),(0.15,0.06)],(0.3127,0.3290))
# Bradford D65->D50
Mb=np.array([[0.8951,0.2664,-0.1614],[-0.7502,1.7135,0.0367],[0.0389,-0.0685,1.0296]])
def adapt(ws,wd):
  def xyz(w): return np.array([w[0]/w[1],1,(1-w[0]-w[1])/w[1]])
  s=Mb@xyz(ws); d=Mb@xyz(wd); return np.linalg.inv(Mb)@np.diag(d/s)@Mb
spaces={'adobe':([(0.64,0.33),(0.21,0.71),(0.15,0.06)],(0.3127,0.3290),2.2),
        'prophoto':([(0.7347,0.2653),(0.1596,0.8404),(0.0366,0.0001)],(0.3457,0.3585),1.8)}
def lanczos(img,size):
  out=np.zeros((size[1],size[0],img.shape[2]))
  for c in range(img.shape[2]):
    out[...,c]=np.asarray(Image.fromarray(img[...,c].astype(np.float32),'F').resize(size,Image.LANCZOS))
  return out
def lab(rgb_enc):
  l=dec(np.clip(rgb_enc,0,1)); X=l@srgbM.T; wn=srgbM.sum(1)
  f=lambda t: np.where(t>(6/29)**3,np.cbrt(t),t/(3*(6/29)**2)+4/29)
  fx,fy,fz=[f(X[...,i]/wn[i]) for i in range(3)]
  return np.stack([116*fy-16,500*(fx-fy),200*(fy-fz)],-1)
def de2000(a,b):
  L1,a1,b1=a[...,0],a[...,1],a[...,2]; L2,a2,b2=b[...,0],b[...,1],b[...,2]
  C1=np.hypot(a1,b1);C2=np.hypot(a2,b2);Cb=(C1+C2)/2
  G=0.5*(1-np.sqrt(Cb**7/(Cb**7+25**7)))
  a1p=(1+G)*a1;a2p=(1+G)*a2;C1p=np.hypot(a1p,b1);C2p=np.hypot(a2p,b2)
  h1=np.degrees(np.arctan2(b1,a1p))%360;h2=np.degrees(np.arctan2(b2,a2p))%360
  dL=L2-L1;dC=C2p-C1p;dh=h2-h1;dh=np.where(dh>180,dh-360,np.where(dh<-180,dh+360,dh));dh=np.where(C1p*C2p==0,0,dh)
  dH=2*np.sqrt(C1p*C2p)*np.sin(np.radians(dh/2))
  Lb=(L1+L2)/2;Cbp=(C1p+C2p)/2
  hs=h1+h2;hb=np.where(C1p*C2p==0,hs,np.where(np.abs(h1-h2)<=180,hs/2,np.where(hs<360,(hs+360)/2,(hs-360)/2)))
  T=1-0.17*np.cos(np.radians(hb-30))+0.24*np.cos(np.radians(2*hb))+0.32*np.cos(np.radians(3*hb+6))-0.20*np.cos(np.radians(4*hb-63))
  dth=30*np.exp(-((hb-275)/25)**2);RC=2*np.sqrt(Cbp**7/(Cbp**7+25**7))
  SL=1+0.015*(Lb-50)**2/np.sqrt(20+(Lb-50)**2);SC=1+0.045*Cbp;SH=1+0.015*Cbp*T;RT=-np.sin(np.radians(2*dth))*RC
  return np.sqrt((dL/SL)**2+(dC/SC)**2+(dH/SH)**2+RT*(dC/SC)*(dH/SH))
ref=np.round(np.clip(lanczos(chart,(96,64)),0,1)*255)/255
for name,(prims,white,g) in spaces.items():
  M=xyz_matrix(prims,white); A=adapt((0.3127,0.3290),white)
  to_p=np.linalg.inv(M)@A@srgbM; to_s=np.linalg.inv(to_p)
  lin=dec(chart); plin=np.clip(lin@to_p.T,0,1); penc=np.round(plin**(1/g)*255)/255
  def conv(pe): return enc(np.clip(pe,0,1)**g@to_s.T)
  full=np.round(np.clip(lanczos(conv(penc),(96,64)),0,1)*255)/255
  planar=np.round(conv(lanczos(penc,(96,64)))*255)/255
  pl=np.clip(penc,0,1)**g
  srgbcurve=lanczos(enc(pl),(96,64)); be=np.round(enc(dec(np.clip(srgbcurve,0,1))@to_s.T)*255)/255
  linear=np.round(enc(lanczos(pl,(96,64))@to_s.T)*255)/255
  linsrgb=np.round(enc(lanczos(dec(chart),(96,64)))*255)/255
  for k,v in [('convert-first',full),('planar/profile-curve',planar),('srgb-curve+profile-primaries',be),('linear',linear)]:
    d=de2000(lab(v),lab(ref)); print(name,k,'mean %.3f max %.2f'%(d.mean(),d.max()))
  d=de2000(lab(linsrgb),lab(ref)); print('(untagged linear vs gamma) mean %.3f max %.2f'%(d.mean(),d.max()))
