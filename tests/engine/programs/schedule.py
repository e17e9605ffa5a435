import torch
w = torch.tensor(1.5, requires_grad=True)
a = w * 2
b = w * 3
c = b * a
c.backward()
a = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(-1.0, requires_grad=True)
c = torch.tensor(2.0, requires_grad=True)
d = torch.tensor(0.25, requires_grad=True)
p = a * b
q = c * d
r = p.tanh()
s = q.tanh()
L = r + s
L.backward()
e = d * c
e.backward()
h = w
for _ in range(5):
    h = h * w
h.backward()
print(w.grad, a.grad, b.grad, c.grad, d.grad)
