import torch
xs = [torch.tensor(1.0)]
ys = xs + [torch.tensor(2.0)]
