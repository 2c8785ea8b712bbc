package say

// english is the engine's sentences in English, one a line: each key, a
// tab and its text, with its arguments as {a}, {b}, ... in order (one
// string, not a map nor a slice of pairs: the browser's build is smaller
// so, and a sentence is said at a reader's pace). The English a reader sees is made
// from it (Text.String); the widget's other languages have a text for
// every key in their catalogs (site/static/widget/i18n-LANG.js), which a
// test in site holds.
const english = `
engine.event	#{a} t={b} sched={c} {d}: {e} ({f}µs)
engine.eventFrom	{a} from {b}
engine.eventInput	frame from client
con.show.noProcess	no process ran during the last command
con.show.idle	idle: nothing left to run
con.show.restarts	{a}restarts={b} in the last 10s, gives up at {c}
con.show.gaveUp	{a}gave-up: a sixth crash within 10s, the queue has no process
con.show.throughput	throughput over {a}: {b}
con.show.nodeCpu	{a} of {b} schedulers over {c}
con.show.rates	rates over {a} to {b}, one column per {c}ms
con.show.rateRow	{a} max {b}{c} now {d}{c}
con.show.unit.perSecond	/s
con.show.unit.msgs	 msgs
con.show.unit.bytes	 bytes
con.show.schedRow	{a} now {b}
con.show.noneSet	{a} (none set){b}
con.show.gcCombine	{a} ({b} dead): merges two neighbouring files once the files hold more than {c} bytes and more than half of them are dead
con.show.gcCompact	{a} ({b} dead): compacts a file in place when less than half of it is live, 15 s after an ack
engine.mailboxEmpty	its mailbox is empty
engine.mailboxOne	1 more message waits in its mailbox
engine.mailboxMany	{a} more messages wait in its mailbox
engine.readyUnacked	{a} ready, {b} unacked
engine.ready	{a} ready
engine.itself	itself
engine.nothingYet	nothing has run yet
engine.readFrameLast	{a} reads a frame from the client's socket; nothing more is unread
engine.readFrame	{a} reads a frame from the client's socket; {b} more publishes wait unread
engine.method	{a} takes a command from {b}; {c}
engine.bumpCredit	{a} gets more credit from {b}; it may send {c} more before it must wait
engine.bumpCreditBare	{a} gets more credit from {b}
engine.sendCommand	{a} sends frames to the client
engine.deliverQueue	{a} takes a publish from its mailbox; {b}
engine.deliver	{a} passes a delivery from {b} on to its consumer
engine.confirm	{a} hears from {b} that publishes are safe, and confirms them to its client
engine.rejectPublish	{a} hears from {b} that publishes were refused, and nacks them to its client
engine.ack	{a} takes an ack from {b}; {c}
engine.requeue	{a} puts messages back from {b}; {c}
engine.reject	{a} drops messages {b} rejected; {c}
engine.notifySent	{a} hears that its deliveries went out; {b}
engine.resume	{a} may deliver again: the channel's prefetch has room
engine.call	{a} answers a call from {b}; {c}
engine.reply	{a} gets the answer from {b}
engine.down	{a} hears that a process it watched has gone; {b}
engine.dropExpired	{a} drops the messages whose TTL ran out; {b}
engine.alarmCleared	{a} hears that the alarm is cleared, and reads its socket again
engine.alarmHeard	{a} hears of a resource alarm, and stops reading publishes from its socket
engine.pageOut	{a} pages messages out to disk to free memory; {b}
engine.msgStore	{a} writes or removes messages for {b}; {c}
engine.onDisk	{a} hears from {b} that its messages are on disk; {c}
engine.gcStepJob	{a} runs a step of its job: {b}
engine.gcStep	{a} runs a step of its job
engine.maybeGC	{a} looks for files worth compacting
engine.processHandles	process {a} handles {b}
engine.handles	{a} handles {b} from {c}; {d}
engine.m.blocked	{a} stops reading its socket: the publishers on that connection wait
engine.m.unblocked	{a} reads its socket again
engine.m.confirm	{a} confirms publishes to its client
engine.m.fileRolled	{a} rolls over to a new file: {b}.rdq is full, writes go to {c}.rdq
engine.m.gcEnd	{a} finished {b}
engine.m.gcStart	{a} starts {b}
engine.m.creditOut	{a} has used its credit towards {b} ({c}/{d}): it sends nothing more until {e} grants more
engine.m.creditBack	{a} grants {b} more credit ({c}/{d}): it may send again
engine.m.alarmRaised	the {a} alarm is raised: every connection that publishes is blocked
engine.m.alarmCleared	the {a} alarm is cleared: publishers may go on
engine.m.gaveUp	queue {a} crashed again: its supervisor gives up, and no process runs it
engine.m.crashed	queue {a} crashes
engine.m.restarted	its supervisor restarts queue {a} (restart {b} within 10 s)
engine.m.runsAgain	queue {a} runs again, in a new process
engine.res.memory	memory
engine.res.disk	disk
engine.m.creditOutHolds	{a} has used its credit towards {b} ({c}/{d}): it keeps sending, and holds back the credit its senders wait for until {e} grants more
engine.g.withinNow	{a} within {b} ms (it is t={c})
engine.g.within	{a} within {b} ms
engine.g.noLine	{a} (no such line yet)
engine.g.noQueue	{a} (there is no queue {b})
engine.g.noRestart	{a} (the node has had no {b} restart)
engine.g.before	{a} (every such line came before it, at event {b})
engine.g.sawAfter	{a} saw {b} after a {c} restart
engine.g.clean	clean
engine.g.crash	crash
engine.g.powerLoss	power-loss
engine.g.noProcess	there is no process {a}
engine.g.noLink	credit {a} (no such link yet)
engine.g.noFile	file {a} (there is no such file)
engine.g.noAlarm	no alarm (alarms: {a})
engine.g.alarmWanted	the {a} alarm is raised (alarms: {b})
engine.g.alarmRaised	the {a} alarm is raised
engine.g.wasBlocked	{a} was never blocked (it stopped reading at event {b})
engine.g.neverBlocked	{a} was never blocked
engine.g.dropped	{a} never had a publish dropped ({b})
engine.g.neverDropped	{a} never had a publish dropped
engine.g.notGone	file {a} is gone (it is there, {b} bytes)
engine.g.gone	file {a} is gone
engine.g.saw	{a} saw {b}
engine.g.has	{a} has {b}
con.stopBudget	stopped after {a} events (the budget of one command); run continues, reset starts again
con.stopTime	stopped after {a} events (the time budget of one command here{b}); run continues, reset starts again
con.stopMessages	stopped after {a} events: the simulation holds {b} messages (the memory budget of a simulation is {c}); consume, purge or delete, or reset to start again
con.stopBytes	stopped after {a} events: the simulation holds {b} MB of messages and files (the memory budget of a simulation is {c} MB); consume, purge or delete, or reset to start again
con.stopPage	stopped after {a} events: the simulations of this page hold {b} MB of messages and files (their memory budget is {c} MB); consume, purge or delete, or reset a widget
con.stopTimeline	stopped after {a} events: the timeline holds {b} MB (the memory budget of a simulation); reset starts again
con.goalMet	goal met: {a}
con.goalNotMet	goal not met: {a}
engine.g.want	{a} (want {b})
engine.g.badLink	credit={a} names no link: write it as "FROM -> TO", as show credit prints it
engine.g.goneAndAsk	file {a} gone cannot also ask for {b}=
engine.g.none	none
con.error	error: {a}
con.lineColumn	line {a}, column {b}: {c}
con.column	column {a}: {b}
con.named	{a}: {b}
con.hinted	{a} ({b})
con.budgetPublish	basic.publish: count={a} would make the simulation hold {b} messages, more than its memory budget of {c}; publish fewer in one command
con.budgetBytes	basic.publish: count={a} messages of {b} bytes would make the simulation hold {c} MB of messages and files, more than its memory budget of {d} MB; publish fewer or smaller messages
con.budgetPage	basic.publish: count={a} messages of {b} bytes would make the simulations of this page hold {c} MB of messages and files, more than their memory budget of {d} MB; publish fewer or smaller messages, or reset another widget
con.onWrap	on: {a}
con.clusterFirst	cluster: the cluster is formed before anything happens: start a new simulation with cluster nodes={a} first
con.faultClearPath	fault clear: takes no path; it clears every fault of the node
con.faultName	fault: name one fault: {a}
con.setSchedRunning	set: schedulers can only change while no process is running; run until quiet first
con.setBeforeCluster	set: schedulers, the version profile and the file size are chosen before the cluster is formed (every node gets the same)
con.setBeforeFiles	set: the message store's file size and the version profile are chosen before any durable queue writes files: set them first
con.setVersionFirst	set: the version profile is chosen before anything happens: start a new simulation with set version={a} first
con.goalIsExpect	a goal is an expect command
con.usage	usage: {a}
con.noHandler	{a}: the engine has no handler for this command
con.whenOutside	when: event {a} is outside the timeline (0 to {b})
con.whenStopEvents	when: stopped looking after {a} events, at event {b} (the budget of one command)
con.whenStopTime	when: stopped looking after {a} events, at event {b} (the time budget of one command here, {c})
con.whenAt	when: at event {a}, {b}
con.whenFrom	when: line {a} starts with {b}, not an event number
con.expectStopLines	expect: stopped looking after {a} trace lines (the budget of one command)
con.expectStopTime	expect: stopped looking after {a} trace lines (the time budget of one command here, {b})
con.expectNotChecked	expect: not checked: the goals before it took the time budget of one command here, {a}
con.singleNode	{a}: a single node cannot be stopped and started this way (form a cluster with cluster nodes=N; restart kind=clean restarts one node)
con.connOnStopped	c{a} is on {b}, which is stopped: start it (start_app node={c}) or place the connection on a running node (connect on=c{d} node=N)
con.clusterTwo	cluster: nodes must be at least 2
con.clusterRam	cluster: ram={a} leaves no disc node among {b} nodes; at least one node must keep the metadata on disk
con.clusterFormed	cluster: the cluster is formed already, with {a} nodes
con.connectStopped	connect: {a} is stopped
con.importStopped	{a} is stopped; import on a running node
con.importNode	node= needs a node's number or name
con.connectOpen	connect: c{a} is open on {b} already; close it first
con.noNode	no node {a} in the cluster; its nodes are {b}
con.crashQuorum	crash: {a} is a quorum queue; crash kills classic queue processes
con.faultBadPath	fault {a}: bad path pattern {b}: {c}
con.faultNoPath	fault {a}: missing path=GLOB, the files it hits (path=*.qi hits every queue index segment)
con.faultMsgStore	fault {a}: path={b} hits the message store's {c}: a message store that meets a failed write or fsync crashes and takes its whole vhost down (rabbit_vhost_sup), which is not modelled; fault the queues' files instead (path=*.qi, *.qs, *.idx or journal.jif)
con.faultUnknown	fault: unknown fault {a}; the faults are {b}
con.bytesRead	{a}: {b} of {c} bytes read
con.noFile	no file {a} on the node's disk
con.reNotSupported	{a}: \{b} is not supported
con.reMissingParen	{a}: missing )
con.reMissingBracket	{a}: missing ]
con.reNothingToRepeat	{a}: nothing to repeat at {b}
con.reRange	{a}: range out of order
con.reBackslash	{a}: trailing backslash
con.reUnexpected	{a}: unexpected {b} at {c}
con.reInvalid	not a valid regular expression
con.restartKind	restart: kind must be one of clean, crash, power-loss, got {a}
con.restartCluster	restart: restarting one node of a cluster is not modelled; use a single node
con.restartNoDisk	restart: the node has no disk
con.crashNoQueue	{a}: no queue '{b}' in vhost '/'
con.seekOutside	seek: event {a} is outside the timeline (0 to {b})
con.seekStopEvents	seek: stopped at event {a} of {b} after replaying {c} events (the budget of one command); seek again to go on
con.seekStopTime	seek: stopped at event {a} of {b} after replaying {c} events (the time budget of one command here, {d}); seek again to go on
con.stepBackStart	step back: already at the start
con.channelNumber	channel number must be 1 to 65535, got {a}
con.expectedTarget	expected a connection like c1 or a channel like c1.2, got {a}
con.shortString	{a} is {b} bytes long; AMQP carries it as a short string of at most {c} bytes
con.lineTooLong	the line is {a} bytes long; a line holds at most {b}
con.longBody	write a long body as size=N
con.tooManyArgs	a command takes at most {a} arguments; this one has {b}
con.withSaw	{a} goes with saw=, not with queue=
con.flagNoValue	{a} is a flag and takes no value (write {b}, not {c}={d})
con.givenTwice	{a} is given twice
con.notClient	{a} is not a client command
con.notColumn	{a} is not a list_queues column (want one of {b})
con.notCompared	{a} is not something {b}= compares (want one of {c})
con.mustInt	{a} must be an integer, got {b}
con.mustBetween	{a} must be between {b} and {c}, got {d}
con.mustOneOf	{a} must be one of {b}, got {c}
con.mustBool	{a} must be true or false, got {b}
con.needsValue	{a} needs a value ({b}=...)
con.needsNumber	{a} needs a value ({b}=N)
con.needsOneOf	{a} needs a value, one of {b}
con.parenList	{a}: a value starting with ( is read as a list
con.goneNoField	a file that is gone has no {a}: give file=NAME gone alone
con.oneGoal	a goal checks one thing: give one of queue=, saw=, process=, credit=, file=, alarm= or never=
con.noAckAckEvery	a no-ack consumer sends no acks: drop ack-every or no-ack
con.policyNeedsDef	a policy needs at least one KEY=V definition
con.afterWithSaw	after= goes with saw=: expect on=CONN.CH saw=KIND ... after=power-loss
con.alarmAlone	alarm= takes nothing more
con.noName	argument {a} has no name
con.closeNeedsChannel	channel.close needs a channel like c1.2
con.commands	commands: {a}
con.didYouMean	did you mean {a}?
con.empty	empty command
con.bodyOrSize	give body= or size=, not both
con.setOrClear	give exactly one of set= or clear=
con.msOrEvents	give ms= or events=, not both
con.queueOrSaw	give queue= or saw=, not both
con.goalForms	give queue=Q with the columns it should show, saw=KIND with what a channel should have seen, or process=, credit=, file=, alarm= or never=
con.goneWithFile	gone goes with file=: expect file=NAME gone
con.missing	missing {a}=
con.missingSubmit	missing the command to submit
con.defsNative	not in the browser build of warren: drop or paste the definitions file on the scenario editor, which writes it as lines of the language, or run it with go run ./scripts/scenario
con.missingDefs	missing the definitions, a JSON object on the same line
con.missingType	missing type=
con.neverNeedsOn	never= needs on=: the connection (blocked) or the channel (dropped) it is about
con.neverDropped	never=dropped is about a channel: on=cN.M
con.onNeedsValue	on needs a value like c1.1
con.onChannel	on= must name a channel like c1.2 here
con.onConnection	on= must name a connection like c2 here
con.spaceBetween	put a space between arguments, or the text inside the quotes
con.sayWhat	say what {a}= should show: {b}
con.sayQueue	say what the queue should show, as list_queues columns: messages=0 consumers=1 ...
con.submitTakes	submit takes an AMQP method such as basic.publish
con.afterQuote	text right after a closing quote
con.quoteOpen	the quote opened here is never closed
con.tryOneOf	try one of: {a}
con.unknownArg	unknown argument {a}
con.unknownCommand	unknown command {a}
con.usageSubmit	usage: submit basic.publish key=q count=100
con.workUs	work-us is the time the client spends on each message before it acks: give ack-every=N too
con.quoteHow	write key="a value"; inside quotes \" is a quote and \\ a backslash
con.noParen	write the value without a leading parenthesis
con.noSim	no simulation {a} (create one first, or it was destroyed)
con.optsNotObject	options are not a JSON object: {a}
con.optsSchedulers	options: schedulers must be a whole number from 1 to {a}, not {b}
con.optsUnknown	options: unknown option {a} (known: schedulers)
con.simStopped	simulation {a} stopped after an internal error ({b}); reset it
con.stepN	step: n must be at least 1, not {a}
con.argNumber	argument {a} ({b}) must be a number, not {c}
con.argString	argument {a} ({b}) must be a string, not {c}
con.argWhole	argument {a} ({b}) must be a whole number, not {c}
con.argMissing	missing argument {a} ({b})
con.atOffset	{a} at offset {b}
con.gc.job.combine	combine {a} into {b}
con.gc.job.delete	delete {a}
con.gc.job.compact	compact {a}
con.gc.job.truncate	truncate {a}
con.gc.line	gc {a}
con.gc.start	{a}: start t={b} {c} {d}
con.gc.step	{a}: {b} {c} ({d})
con.gc.stepBare	{a}: {b} {c}
con.gc.moved	{a}: moved {b} from {c} to {d} ({e} bytes)
con.gc.end	{a}: end t={b} after {c}, {d} moved; {e}
con.gc.files	{a}, {b}
con.gc.fileGone	{a} gone
con.gc.d.and	{a}; {b}
con.gc.d.abandoned	the job stopped after an error
con.gc.d.nothing	nothing to collect
con.gc.d.liveContiguous	{a} live messages ({b} bytes), contiguous up to {c}
con.gc.d.mergedSize	merged size will be {a}
con.gc.d.tempCopy	temporary copy of the live messages above the contiguous prefix
con.gc.d.messagesFromTo	{a} messages from {b}@{c} to {d}@{e}
con.gc.d.fsync	fsync
con.gc.d.cutPrefix	cut after the contiguous prefix
con.gc.d.extend	extend to the merged size
con.gc.d.cutLive	cut after the live messages
con.gc.d.bytesBack	{a} bytes back from {b} to {c}@{d}
con.gc.d.tempGone	temporary copy no longer needed
con.gc.d.toBytes	to {a} bytes: {b}
con.gc.d.append	{a} live messages ({b} bytes) to append to {c}@{d}
con.gc.d.mergedInto	merged into {a} ({b} bytes)
con.gc.d.reclaimed	{a} bytes reclaimed
con.gc.d.liveAgain	{a} live messages again
con.gc.d.stays	the file stays
con.gc.d.noLive	no live messages
con.gc.d.noneLive	{a} entries, none live
con.gc.d.zeroes	{a} zero bytes at {b}
con.gc.d.bytesFromTo	{a} bytes from {b} to {c}
con.gc.d.moved	{a} messages moved
con.gc.d.indexUpdated	index updated
con.gc.d.truncateLater	truncate to {a} once no reader uses the file
con.gc.d.live	{a} live messages
con.gc.d.toMove	{a} to move
con.gc.d.canShrink	the file can shrink to {a} bytes
con.gc.d.fileGone	the file is gone
con.gc.d.fromTo	from {a} to {b} bytes
`
