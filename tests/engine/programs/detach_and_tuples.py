import torch
x = torch.tensor(3.0, requires_grad=True)
sq = x ** 2
d = sq.detach()
print(d, d.is_leaf, d.requires_grad, d.grad)
d.backward()
a, b = x * 2, x + 1
pair = (a * b, d)
p, q = pair
print(pair, p, q, len(pair), pair[1])
a, b = b, a
loss = p * d + a
loss.backward()
print(x.grad)
y = x.exp()
dy = y.detach()
dy += 1
print(y, dy)
y.backward()
with torch.no_grad():
    n = x.detach()
n += 1
print(x, n)
a, b = 1, 2, 3
a, b = x
a, b = (x,)
