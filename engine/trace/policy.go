package trace

import (
	"strconv"

	"warren/engine/amqp"
)

// PolicyLine prints one row of list_policies:
// `policy name=P pattern=PAT apply-to=A priority=N definition={k=v, ...}`,
// the definition's keys sorted bytewise.
func PolicyLine(name, pattern, applyTo string, priority int, def amqp.Table) string {
	return "policy name=" + name + " pattern=" + pattern + " apply-to=" + applyTo +
		" priority=" + strconv.Itoa(priority) + " definition=" + def.String()
}
