package engine
import ("testing";"fmt";"strings")
func TestX(t *testing.T){
 s:=New(Options{Record:true})
 ls:=[]string{"set version=3.10","set version=3.13","set file-size-limit=16384","queue.declare queue=big durable x-queue-version=2","confirm.select","basic.publish key=big size=5000 count=12 persistent","basic.consume queue=big tag=w on=c2.1"}
 for _,n:=range []int{5,6,7}{ls=append(ls,fmt.Sprintf("basic.ack tag=%d on=c2.1",n))}
 ls=append(ls,"run ms=1000","show files","show gc","run ms=20000","show files","show gc","expect file=1.rdq entries=1 live=1 dead=0")
 for _,l:=range ls{fmt.Println(">",l);for _,o:=range s.ExecLine(l){if !strings.Contains(o,"queues/")&&!strings.Contains(o,"deliver")&&!strings.Contains(o,"confirm-ack"){fmt.Println(o)}}}
}
