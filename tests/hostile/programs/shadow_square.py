import torch
x = 1/3
for _ in range(40):
    x = x * x
w = torch.tensor(x)
print(w)
