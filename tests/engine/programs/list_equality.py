import torch
w = torch.tensor(1.5, requires_grad=True)
xs = [1, [2.5, [3]], w]
ys = [1, [2.5, [3]], w]
print(xs == ys, xs != ys)
print([1, 2] == [1, 3], [1] == [1, 2], [[]] != [[]], [0.1 + 0.2] == [0.3])
a = []
a.append(a)
b = []
b.append(b)
print(a == a, a, [a] == [a])
print(a == b)
print(a != b)
print(len(a))
