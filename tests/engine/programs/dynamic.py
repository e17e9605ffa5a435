import torch
w1 = torch.tensor(1/3, requires_grad=True)
x = torch.tensor(1.0)
z = x * w1
s = z.relu()
if s > 0:
    s = s * 2
s.backward()
print(w1.grad)
w1.grad = None
x = torch.tensor(-1.0)
z = x * w1
s = z.relu()
if s > 0:
    s = s * 2
s.backward()
print(w1.grad)
