"""Rules of the control-plane components' configuration: shared component base, scheduler, proxy, controller managers, leader migration, kubelet."""
