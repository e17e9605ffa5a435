import torch
w = torch.tensor(3., requires_grad=True)
v = torch.tensor(2., requires_grad=True)
c = torch.tensor(2.)
(w*w).backward()
(w*w).backward()
print(w.grad)
w.grad = None
(w*w).backward()
w.grad.zero_()
a = w*2
b = w*3
d = a+b
d.backward()
e = 2 - w
f = 2 / w
g = w ** v
h = 2 ** w
k = c ** w
m = w.clamp(0, 1) + w.clamp(min=0) + torch.clamp(w, max=1)
n = w.sum() + w.mean() + abs(w) + w.sqrt() + w.reciprocal() + w.square() + w.pow(0.5) + w ** -1 + w**3 + w**-2 + w**-0.5 + w**2.5
total = e + f + g + h + k + m + n
total.backward()
print(w.grad, v.grad)
total.backward()
z = -(w + 1)
z.backward()
z.backward()
print(w.grad)
a2 = w*w
b2 = v+1
c2 = a2+b2
c2.backward()
c2.backward()
print(w.grad, v.grad)
x = torch.tensor(1.0)
x += w
print(x)
h2 = w*2
h2 *= v
h2.backward()
w += 1
with torch.no_grad():
    w -= 0.1 * w.grad
print(w)
q = w.relu()
r = q * 3
q -= 1
r.backward()
z2 = x*2
z2.grad
for i in range(3):
    z2.grad
torch.tensor(1.).backward()
t3 = torch.tensor(3, requires_grad=True)
t4 = torch.tensor(3)
print(t4 + 1, t4 / 2, t4 * w)
s = w.relu()
if s > 0:
    s = s * 2
else:
    s = s + 1
s.backward()
p = w.tanh() * w.exp() + w.log() + w.sigmoid()
p.backward()
print(w.grad)
w.backward()
print(w.grad)
