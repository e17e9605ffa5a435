import torch
w = torch.tensor(3., requires_grad=True)
y = w * w
y.backward()
print(w.grad)
y = w * w
y.backward()
print(w.grad)
w.grad = None
y = w * w
y.backward()
print(w.grad)
