"""Command lines: the flags kubeadm's extraArgs and the static Pod manifests pass to each component, per release.

The flag tables and the flags a document passes are `svcconf.known.flags`; here
`checks` judges names, values and combinations as the component would (`repeats`: a flag given twice,
`proxy`: kube-proxy's flags beside --config), `files` the configuration files the flags name;
`kubeadm` and `pods` are the rules that bind them to the kinds.
"""
